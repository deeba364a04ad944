//! Progress on stderr for runs that take more than a second: a bar with the
//! puzzles done, their rate and the time left (by the bytes of the input
//! files read), or a spinner with the elapsed time when the size is unknown
//! (stdin) or once every byte is read and puzzles are still being answered
//! (one long puzzle was "100%, ETA 0s"). Only when stderr is a terminal;
//! never on stdout.

use std::io::{self, IsTerminal, Read};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::output::Palette;

/// How long a run goes before it shows progress: shorter runs show nothing.
/// `SATDOKU_PROGRESS_DELAY_MS` sets another (the tests show it at once).
fn delay() -> Duration {
    let ms = std::env::var("SATDOKU_PROGRESS_DELAY_MS").ok().and_then(|ms| ms.parse().ok());
    Duration::from_millis(ms.unwrap_or(1000))
}

/// Colour the bars as `palette` colours stderr (`--color`, NO_COLOR, …):
/// their styles otherwise follow whether stdout is a terminal.
pub fn color_bars(palette: Palette) {
    console::set_colors_enabled(palette.is_on());
    console::set_colors_enabled_stderr(palette.is_on());
}

/// The elapsed time and what is under way, with no end in sight.
fn spinner() -> ProgressStyle {
    ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}{prefix}")
        .unwrap_or_else(|_| ProgressStyle::default_spinner())
}

/// The bytes read of the whole, the time left by them, and what is under way.
fn bar() -> ProgressStyle {
    ProgressStyle::with_template(
        "{spinner} {elapsed_precise} [{wide_bar:.cyan/blue}] {percent:>3}% {msg}{prefix}, ETA {eta}",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar())
}

/// The bar of the run under way, if it shows one, for writers to clear it
/// around what they write to the terminal.
static SHOWN: Mutex<Option<ProgressBar>> = Mutex::new(None);

/// Clear the bar shown, if any, for good: a signal ends the run, and the
/// prompt after it must not land on a stale bar.
pub fn clear_for_exit() {
    let bar = SHOWN.try_lock().ok().and_then(|mut shown| shown.take());
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
}

/// Run `write` with the progress bar (if any) cleared, and redraw it after.
pub fn suspend<T>(write: impl FnOnce() -> T) -> T {
    let bar = SHOWN.lock().ok().and_then(|shown| shown.clone());
    match bar {
        Some(bar) => bar.suspend(write),
        None => write(),
    }
}

/// The progress of one batch.
pub struct Progress {
    bar: Option<ProgressBar>,
    counts: Arc<Counts>,
    start: Instant,
    /// Tells the thread that shows the bar after [`delay`] that the run is over.
    done: Option<(mpsc::Sender<()>, JoinHandle<()>)>,
}

/// What a batch has done so far, counted by the threads that do it (a
/// reader thread of its own may count the puzzles read).
#[derive(Default)]
struct Counts {
    /// Bytes of the input files read.
    read: AtomicU64,
    /// Puzzles read.
    puzzles: AtomicU64,
    /// Puzzles answered.
    answered: AtomicU64,
    /// Whether the bar keeps the style it has: a spinner (the size is
    /// unknown, or every byte is read and what is left is the answering,
    /// which the bytes cannot measure: one long puzzle was "100%, ETA 0s"),
    /// or `generate`'s count, which measures no bytes.
    spinning: AtomicBool,
}

impl Counts {
    /// Turn `bar` into a spinner once every byte is read.
    fn spin_when_read(&self, bar: &ProgressBar) {
        self.spin_at(bar, self.read.load(Ordering::Relaxed));
    }

    /// Turn `bar` into a spinner if `read` bytes are every byte.
    fn spin_at(&self, bar: &ProgressBar, read: u64) {
        let all_read = bar.length().is_some_and(|total| read >= total);
        if !self.spinning.load(Ordering::Relaxed) && all_read && !self.spinning.swap(true, Ordering::Relaxed) {
            bar.set_style(spinner());
        }
    }
}

impl Progress {
    /// Progress over `files` (stdin for none or `-`), shown only when stderr is
    /// a terminal (records written to the same terminal clear it first).
    /// None while puzzles are typed on the terminal: a spinner there would
    /// redraw over the line being typed.
    pub fn new(files: &[PathBuf]) -> Progress {
        if !io::stderr().is_terminal() || super::batch::reads_terminal(files) {
            return Progress::hidden();
        }
        // The total size, when every input is a file whose size is known.
        let sizes: Option<Vec<u64>> = files
            .iter()
            .map(|f| if f.as_os_str() == "-" { None } else { std::fs::metadata(f).ok().map(|m| m.len()) })
            .collect();
        let total = sizes.filter(|s| !s.is_empty()).map(|s| s.iter().sum::<u64>());
        let bar = match total {
            Some(total) => ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden()).with_style(bar()),
            None => ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden()).with_style(spinner()),
        };
        bar.set_message("reading");
        Progress::show(bar, total.is_none())
    }

    fn hidden() -> Progress {
        Progress { bar: None, counts: Arc::default(), start: Instant::now(), done: None }
    }

    /// Progress over `total` puzzles made one by one (`generate`): a bar with
    /// the count, the rate and the time left, moved by [`Progress::advance`].
    pub fn counting(total: u64, what: &str) -> Progress {
        if !io::stderr().is_terminal() {
            return Progress::hidden();
        }
        let template = format!(
            "{{spinner}} {{elapsed_precise}} [{{wide_bar:.cyan/blue}}] {{pos}}/{{len}} {what}{{prefix}}, {{per_sec}}, ETA {{eta}}"
        );
        let style = ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar());
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden()).with_style(style);
        Progress::show(bar, true)
    }

    /// `n` more done (of [`Progress::counting`]).
    pub fn advance(&self, n: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(n);
        }
    }

    /// Show `bar` once the run has gone on for [`delay`]; a `spinning` one
    /// keeps its style ([`Counts::spinning`]).
    fn show(bar: ProgressBar, spinning: bool) -> Progress {
        let (done_tx, done_rx) = mpsc::channel();
        let (delayed, delay) = (bar.clone(), delay());
        let before = satdoku::conflicts_so_far();
        let counts = Arc::new(Counts { spinning: AtomicBool::new(spinning), ..Counts::default() });
        let shared = Arc::clone(&counts);
        let shower = std::thread::Builder::new().name("progress".into()).spawn(move || {
            if done_rx.recv_timeout(delay) == Err(RecvTimeoutError::Timeout) {
                if let Ok(mut shown) = SHOWN.lock() {
                    *shown = Some(delayed.clone());
                }
                delayed.set_draw_target(ProgressDrawTarget::stderr());
                // The spinner and the clock move even while one puzzle takes long,
                // and so does the count of the solver's conflicts since the start.
                delayed.enable_steady_tick(Duration::from_millis(120));
                let counts = shared;
                loop {
                    counts.spin_when_read(&delayed);
                    // Once the bar measures nothing, how many are answered.
                    let read = counts.puzzles.load(Ordering::Relaxed);
                    let answered = match counts.spinning.load(Ordering::Relaxed) && read > 1 {
                        true => format!(", {} answered", counts.answered.load(Ordering::Relaxed)),
                        false => String::new(),
                    };
                    let conflicts = satdoku::conflicts_so_far() - before;
                    let conflicts = match conflicts {
                        0 => String::new(),
                        _ => format!(", {conflicts} conflicts"),
                    };
                    delayed.set_prefix(format!("{answered}{conflicts}"));
                    if done_rx.recv_timeout(Duration::from_millis(250)) != Err(RecvTimeoutError::Timeout) {
                        break;
                    }
                }
            }
        });
        let done = shower.ok().map(|handle| (done_tx, handle));
        Progress { bar: Some(bar), counts, start: Instant::now(), done }
    }

    /// One more puzzle answered.
    pub fn answered(&self) {
        self.counts.answered.fetch_add(1, Ordering::Relaxed);
    }

    /// `input` with its bytes counted towards the bar.
    pub fn count_bytes<R: Read>(&self, input: R) -> CountingReader<R> {
        CountingReader { inner: input, counts: Arc::clone(&self.counts), counting: self.bar.is_some() }
    }

    /// One more puzzle read, the one now under way (`describe` names it).
    pub fn tick(&self, describe: impl FnOnce() -> String) {
        let puzzles = self.counts.puzzles.fetch_add(1, Ordering::Relaxed) + 1;
        let Some(bar) = &self.bar else { return };
        // The first puzzles, then one in 64: updating on every one would cost
        // more than a 30 µs puzzle.
        if puzzles > 4 && puzzles % 64 != 0 {
            return;
        }
        let seconds = self.start.elapsed().as_secs_f64();
        let rate = if seconds > 0.0 { puzzles as f64 / seconds } else { 0.0 };
        let message = match puzzles {
            1 => format!("1 puzzle, now {}", describe()),
            2..=4 => format!("{puzzles} puzzles, now {}", describe()),
            _ => format!("{puzzles} puzzles, {rate:.0}/s"),
        };
        // The style first: moved to every byte while still a bar, it would
        // be drawn at "100%, ETA 0s" with the puzzle only begun.
        let read = self.counts.read.load(Ordering::Relaxed);
        self.counts.spin_at(bar, read);
        bar.set_message(message);
        bar.set_position(read);
    }

    /// Clear the bar, and stop the thread that would show it.
    pub fn finish(&mut self) {
        if let Some((done, handle)) = self.done.take() {
            let _ = done.send(());
            let _ = handle.join();
        }
        if let Some(bar) = self.bar.take() {
            if let Ok(mut shown) = SHOWN.lock() {
                *shown = None;
            }
            bar.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// A reader that counts the bytes it passes on.
pub struct CountingReader<R> {
    inner: R,
    counts: Arc<Counts>,
    counting: bool,
}

impl<R: Read> Read for CountingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if self.counting {
            self.counts.read.fetch_add(n as u64, Ordering::Relaxed);
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A terminal that keeps every text drawn on it.
    #[derive(Clone, Debug, Default)]
    struct Recorder(Arc<Mutex<Vec<String>>>);

    impl indicatif::TermLike for Recorder {
        fn width(&self) -> u16 {
            100
        }
        fn move_cursor_up(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> io::Result<()> {
            Ok(())
        }
        fn write_line(&self, line: &str) -> io::Result<()> {
            self.write_str(line)
        }
        fn write_str(&self, text: &str) -> io::Result<()> {
            self.0.lock().expect("not poisoned").push(text.to_string());
            Ok(())
        }
        fn clear_line(&self) -> io::Result<()> {
            Ok(())
        }
        fn flush(&self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_puzzle_begun_once_every_byte_is_read_is_never_drawn_at_100_percent() {
        // Every change drawn at once, as a draw landing between two calls
        // would catch it (one CI run in four did).
        let terminal = Recorder::default();
        let target = ProgressDrawTarget::term_like(Box::new(terminal.clone()));
        let bar = ProgressBar::with_draw_target(Some(100), target).with_style(bar());
        let progress = Progress { bar: Some(bar), counts: Arc::default(), start: Instant::now(), done: None };
        progress.counts.read.store(50, Ordering::Relaxed);
        progress.tick(|| "puzzle 1".into());
        // The last puzzle, read with the last bytes, only begun.
        progress.counts.read.store(100, Ordering::Relaxed);
        progress.tick(|| "puzzle 2".into());
        let frames = terminal.0.lock().expect("not poisoned").clone();
        assert!(frames.iter().any(|f| f.contains(" 50% 1 puzzle, now puzzle 1")), "no bar drawn: {frames:?}");
        let last = frames.iter().rfind(|f| !f.trim().is_empty());
        assert!(last.is_some_and(|f| f.ends_with(" 2 puzzles, now puzzle 2")), "not a spinner: {frames:?}");
        assert!(!frames.iter().any(|f| f.contains("100%")), "drawn at 100%: {frames:?}");
    }
}
