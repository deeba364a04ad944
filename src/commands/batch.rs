//! Batches: every puzzle of every input read in order, answered on one thread
//! or several, and written in input order (stdout and stderr alike).

use std::collections::BTreeSet;
use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{anyhow, Context, Result};

use satdoku::{printable, Entry, ParseError, ParseErrorKind, Position, PuzzleReader};

use super::output::{Emitter, Job, Renderer, Status, Stdout, Summary};
use super::progress::Progress;
use super::streams;
use super::Setup;

/// One puzzle read from the inputs, numbered across all of them.
pub struct Numbered {
    /// 1-based position among all the puzzles of all inputs.
    pub index: usize,
    pub entry: Entry,
    /// The time it took to read (`--stats`).
    pub read: Duration,
    /// The threads this puzzle's own search may use: `--jobs` when it is
    /// the only puzzle of the input, or the first and the input pauses
    /// after it (`solve` then races that many solvers on it), else 1 (the
    /// threads answer different puzzles).
    pub threads: usize,
}

impl Numbered {
    /// How the puzzle is named in messages: `puzzle 3 (file:12)` or `puzzle 3 "Grid 03" (file:12)`.
    pub fn describe(&self) -> String {
        match &self.entry.name {
            Some(name) => format!("puzzle {} \"{name}\" ({})", self.index, self.entry.position),
            None => format!("puzzle {} ({})", self.index, self.entry.position),
        }
    }
}

/// The title lines of the inputs: how many, and where the first was. An
/// input of no puzzle names them, for they are what was read instead.
#[derive(Default)]
pub struct Titles {
    count: usize,
    first: Option<Position>,
    /// The first CSV header: an input of only a header is an empty table.
    header: Option<Position>,
    /// The comment lines that hold a whole puzzle (`#1 4.....8.5…`), and
    /// the first: an input of only those was likely numbered so.
    commented: Option<(usize, Position)>,
}

/// Whether the inputs (stdin for none or `-`) include stdin.
pub fn reads_stdin(files: &[PathBuf]) -> bool {
    files.is_empty() || files.iter().any(|f| f.as_os_str() == "-")
}

/// Whether the inputs include stdin, and it is a terminal: someone types or
/// pastes the puzzles.
pub fn reads_terminal(files: &[PathBuf]) -> bool {
    reads_stdin(files) && io::stdin().is_terminal()
}

/// Read every puzzle of every input in order (stdin for none or `-`), calling
/// `each` on it, with progress on stderr while it runs. An input that
/// cannot be opened is one invalid entry.
pub fn for_each_puzzle(
    files: &[PathBuf],
    setup: &mut Setup,
    each: impl FnMut(Numbered) -> Result<()>,
) -> Result<Titles> {
    read_puzzles(files, setup, &Progress::new(files), each)
}

/// [`for_each_puzzle`], each puzzle read a tick of `progress`, which the
/// caller clears once the puzzles are answered (a parallel run answers
/// them after the reading ends).
fn read_puzzles(
    files: &[PathBuf],
    setup: &mut Setup,
    progress: &Progress,
    mut each: impl FnMut(Numbered) -> Result<()>,
) -> Result<Titles> {
    let stdin = [PathBuf::from("-")];
    if setup.input.is_some() && !files.is_empty() {
        anyhow::bail!("--fpuzzles brings its own puzzle: give no puzzle files with it");
    }
    let mut index = setup.chunk.puzzles_before;
    let mut titles = Titles::default();
    if let Some(entries) = setup.input.take() {
        for mut entry in entries {
            index += 1;
            // Checked as the reader checks the puzzles it reads.
            if let Err(kind) = entry.puzzle.as_ref().map_or(Ok(()), |p| setup.alphabet.check_side(p.size())) {
                entry.puzzle = Err(ParseError { position: entry.position.clone(), kind });
            }
            each(Numbered { index, entry, read: Duration::ZERO, threads: 1 })?;
        }
        return Ok(titles);
    }
    let files = if files.is_empty() { &stdin[..] } else { files };
    for path in files {
        let stdin = path.as_os_str() == "-";
        let (input, name): (Box<dyn BufRead>, String) = if stdin {
            let name = printable(&setup.chunk.stdin_name);
            if let Some(why) = streams::stdin_unusable() {
                // Read, it would be empty (the runtime put /dev/null there):
                // the input is missing, as a file that cannot be opened is.
                index += 1;
                let entry = unreadable(name, format!("cannot read: stdin is {why} (expected puzzles on it)"));
                each(Numbered { index, entry, read: Duration::ZERO, threads: 1 })?;
                continue;
            }
            if io::stdin().is_terminal() {
                // Typed or pasted: the reader looks a line past a puzzle's
                // last (for more of its rows), so a puzzle is answered at
                // the next line, and the last at a blank line or the end.
                let end = if cfg!(windows) { "Ctrl-Z and Enter" } else { "Ctrl-D" };
                let _ = writeln!(
                    io::stderr(),
                    "satdoku: reading puzzles from the terminal: type or paste them; a blank line after one answers it, {end} ends"
                );
            }
            (Box::new(io::stdin().lock()), name)
        } else {
            let name = printable(&path.display().to_string());
            match open_file(path) {
                Ok(f) => (Box::new(BufReader::with_capacity(1 << 16, progress.count_bytes(f))), name),
                Err(e) => {
                    index += 1;
                    let hint = match e.kind() == io::ErrorKind::NotFound && typed_puzzle(path) {
                        true => " (a puzzle is read from a file or stdin: `echo PUZZLE | satdoku solve`)",
                        false => "",
                    };
                    let entry = unreadable(name, format!("cannot open: {e}{hint}"));
                    each(Numbered { index, entry, read: Duration::ZERO, threads: 1 })?;
                    continue;
                }
            }
        };
        let lines_before = if stdin { setup.chunk.lines_before } else { 0 };
        let mut reader =
            PuzzleReader::new(input, name.clone(), &setup.alphabet, &mut setup.spec).starting_after_line(lines_before);
        let index_before = index;
        loop {
            let start = Instant::now();
            let Some(entry) = reader.next() else { break };
            index += 1;
            progress.tick(|| {
                let place = &entry.position;
                format!("puzzle {index} ({place})")
            });
            each(Numbered { index, entry, read: start.elapsed(), threads: 1 })?;
        }
        let (count, first) = reader.titles().unzip();
        let own =
            Titles { count: count.unwrap_or(0), first, header: reader.header(), commented: reader.commented_puzzles() };
        // One of several inputs that holds text and no puzzle gets a record
        // of its own, as one that cannot be opened does: it is not lost
        // behind the others' answers.
        if files.len() > 1 && index == index_before {
            if let (what, true) = own.no_puzzle() {
                index += 1;
                let position = Position { source: name, line: 0, column: None };
                let error = ParseError { position: position.clone(), kind: ParseErrorKind::NoPuzzle(what) };
                let entry = Entry { position, name: None, puzzle: Err(error) };
                each(Numbered { index, entry, read: Duration::ZERO, threads: 1 })?;
            }
        }
        titles.absorb(own);
    }
    Ok(titles)
}

/// The record of an input that cannot be read at all: one invalid entry in
/// its place, saying `why`.
fn unreadable(source: String, why: String) -> Entry {
    let position = Position { source, line: 0, column: None };
    let error = ParseError { position: position.clone(), kind: ParseErrorKind::Io(why) };
    Entry { position, name: None, puzzle: Err(error) }
}

/// Open an input file; a directory is refused here, as a file that cannot be
/// opened (on Unix opening one succeeds, and only reading it fails).
pub fn open_file(path: &Path) -> io::Result<File> {
    let file = File::open(path)?;
    if file.metadata()?.is_dir() {
        return Err(io::ErrorKind::IsADirectory.into());
    }
    Ok(file)
}

/// Answer every puzzle of `files` with `answer`, on `jobs` threads, records
/// in input order. With several threads, an input of one puzzle hands them
/// all to that puzzle ([`Numbered::threads`]).
pub fn run<F>(files: &[PathBuf], setup: &mut Setup, renderer: Renderer, jobs: usize, answer: F) -> Result<Summary>
where
    F: Fn(&Numbered, &mut Emitter) -> io::Result<()> + Sync,
{
    let mut puzzles = 0;
    let mut titles = Titles::default();
    // Shown until the last puzzle is answered, not only read.
    let mut progress = Progress::new(files);
    let answer = |numbered: &Numbered, emitter: &mut Emitter| {
        answer(numbered, emitter)?;
        progress.answered();
        Ok(())
    };
    let mut summary = if jobs <= 1 {
        let mut emitter = Emitter::direct(renderer);
        titles = read_puzzles(files, setup, &progress, |numbered| {
            puzzles += 1;
            answer(&numbered, &mut emitter).context(STDOUT)
        })?;
        emitter.flush().context(STDOUT)?;
        emitter.summary
    } else {
        run_parallel(files, setup, renderer, jobs, &answer, (&progress, &mut puzzles, &mut titles))?
    };
    progress.finish();
    if puzzles == 0 {
        let (what, bad) = titles.no_puzzle();
        if bad {
            summary.add(Status::Invalid);
        }
        let _ = writeln!(io::stderr(), "satdoku: no puzzle in the input: {what}");
    }
    Ok(summary)
}

impl Titles {
    /// What an input that held no puzzle held instead, and whether that is
    /// bad input: text and no puzzle (rows read as titles, or not puzzles
    /// at all) is; no text at all is no news.
    fn no_puzzle(&self) -> (String, bool) {
        if let Some(first) = &self.first {
            let lines = if self.count == 1 { "1 line" } else { &format!("{} lines", self.count) };
            return (format!("{lines} of text, the first at {first}, read as titles"), true);
        }
        if let Some(header) = &self.header {
            return (format!("only a CSV header, at {header}, and no rows under it"), false);
        }
        match &self.commented {
            // Puzzles numbered `#1 …` are comments as written: not what was
            // meant, and nothing was answered.
            Some((count, first)) => {
                let lines = if *count == 1 { "1 comment line holds" } else { &format!("{count} comment lines hold") };
                let what = format!(
                    "only blank or comment lines, and {lines} a whole puzzle after the `#`, the first at {first} (a \
                     line that starts with `#` is a comment: write `Puzzle #1 …`, or the puzzle without the `#`, to \
                     have it read)"
                );
                (what, true)
            }
            None => ("only blank or comment lines".to_string(), false),
        }
    }

    /// Add what another input held.
    fn absorb(&mut self, other: Titles) {
        self.count += other.count;
        if self.first.is_none() {
            self.first = other.first;
        }
        if self.header.is_none() {
            self.header = other.header;
        }
        match (&mut self.commented, other.commented) {
            (Some((total, _)), Some((count, _))) => *total += count,
            (mine, theirs) => {
                if mine.is_none() {
                    *mine = theirs;
                }
            }
        }
    }
}

/// Whether a FILE argument that names no file is a puzzle typed on the
/// command line (`satdoku solve 4.....8.5.3…`): 16 or more characters, no
/// path separator, mostly digits and dots.
fn typed_puzzle(path: &Path) -> bool {
    let Some(text) = path.to_str() else { return false };
    let cellish = text.chars().filter(|c| c.is_ascii_digit() || matches!(c, '.' | '_' | '*')).count();
    text.chars().count() >= 16 && !text.contains(['/', '\\']) && cellish * 4 >= text.chars().count() * 3
}

/// What a failed write to stdout says (a closed pipe ends the run quietly instead).
pub const STDOUT: &str = "cannot write to standard output";

/// `--jobs N`: a reader thread reads, N workers answer chunks of puzzles
/// ([`ordered_pool`]). A chunk holds about [`CHUNK_TIME`] of work by the
/// time puzzles have taken so far: up to [`CHUNK`] 30 µs puzzles, which
/// keeps the hand-offs rare, or one slow puzzle, so that a few hard ones
/// (or an external solver's) are answered side by side, not one after
/// another in one chunk. Until a puzzle is answered, a chunk is one puzzle.
/// A chunk goes out full, or as soon as the input stalls for
/// [`INPUT_STALL`] (a script that writes a puzzle and waits for its answer,
/// `tail -f`): no puzzle read waits for the ones after it.
fn run_parallel<F>(
    files: &[PathBuf],
    setup: &mut Setup,
    renderer: Renderer,
    jobs: usize,
    answer: &F,
    (progress, puzzles, titles): (&Progress, &mut usize, &mut Titles),
) -> Result<Summary>
where
    F: Fn(&Numbered, &mut Emitter) -> io::Result<()> + Sync,
{
    let cost = ChunkCost::default();
    let work = |chunk: Vec<Numbered>, emitter: &mut Emitter| {
        let start = Instant::now();
        chunk.iter().try_for_each(|n| answer(n, emitter))?;
        cost.add(chunk.len(), start.elapsed());
        Ok(())
    };
    let produce = |send: &mut dyn FnMut(Vec<Numbered>) -> Result<()>| {
        std::thread::scope(|scope| {
            // Puzzles one by one, and a ticket for every CHUNK taken, so
            // that the reader is at most a few chunks ahead and the two
            // threads wake each other once a chunk, not once a puzzle.
            const AHEAD: usize = 2;
            let (tx, rx) = mpsc::channel::<Numbered>();
            let (ticket_tx, ticket_rx) = mpsc::sync_channel::<()>(AHEAD);
            let reader = std::thread::Builder::new()
                .name("reader".into())
                .spawn_scoped(scope, move || {
                    // A failed send: the run has stopped (stdout closed).
                    let stopped = || anyhow!(io::Error::from(io::ErrorKind::BrokenPipe));
                    let (mut read, mut tickets) = (0, AHEAD);
                    read_puzzles(files, setup, progress, |numbered| {
                        tx.send(numbered).map_err(|_| stopped())?;
                        read += 1;
                        if read % CHUNK == 0 {
                            match tickets {
                                0 => ticket_rx.recv().map_err(|_| stopped())?,
                                _ => tickets -= 1,
                            }
                        }
                        Ok(())
                    })
                })
                .map_err(|e| anyhow!("cannot start the reader thread: {e}"))?;
            let mut chunk = Vec::with_capacity(CHUNK);
            // The input's first puzzle alone in its chunk (the only one, or
            // the input paused after it) may use every thread: the others
            // would idle.
            let mut hand_out = |mut chunk: Vec<Numbered>, puzzles: usize| {
                if let ([first], 1) = (&mut chunk[..], puzzles) {
                    first.threads = jobs;
                }
                send(chunk)
            };
            let take = |chunk: &mut Vec<Numbered>| std::mem::replace(chunk, Vec::with_capacity(CHUNK));
            let sending = loop {
                let next = match chunk.is_empty() {
                    true => rx.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected),
                    false => rx.recv_timeout(INPUT_STALL),
                };
                let handed = match next {
                    Ok(numbered) => {
                        *puzzles += 1;
                        if *puzzles % CHUNK == 0 {
                            let _ = ticket_tx.try_send(());
                        }
                        // The first puzzle waits for a second one (or the end
                        // of the input, or a stall) before it goes: alone, it
                        // may use every thread.
                        let limit = cost.chunk_limit();
                        let before = match chunk.len() >= limit {
                            true => hand_out(take(&mut chunk), *puzzles),
                            false => Ok(()),
                        };
                        chunk.push(numbered);
                        before.and_then(|()| match chunk.len() >= limit && *puzzles > 1 {
                            true => hand_out(take(&mut chunk), *puzzles),
                            false => Ok(()),
                        })
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => hand_out(take(&mut chunk), *puzzles),
                    Err(mpsc::RecvTimeoutError::Disconnected) => break Ok(()),
                };
                if let Err(e) = handed {
                    break Err(e);
                }
            };
            // The reader stops at its next puzzle once nobody takes it.
            drop((rx, ticket_tx));
            let read = reader.join().map_err(|_| anyhow!("the reader thread panicked"))?;
            sending?;
            *titles = read?;
            match chunk.is_empty() {
                true => Ok(()),
                false => hand_out(chunk, *puzzles),
            }
        })
    };
    ordered_pool(jobs, renderer, &work, produce, |_| {})
}

/// How long the reader of a parallel run may be idle before the puzzles
/// read so far are answered without waiting for a full chunk.
const INPUT_STALL: Duration = Duration::from_millis(50);

/// The most puzzles in one chunk of a parallel run.
const CHUNK: usize = 64;

/// The work a chunk holds, by the time recent puzzles took: a hand-off
/// costs microseconds, so 2 ms of work makes it negligible.
const CHUNK_TIME: Duration = Duration::from_millis(2);

/// What a puzzle of the recent chunks cost, to size the next chunks.
#[derive(Default)]
struct ChunkCost {
    /// Nanoseconds a puzzle, each chunk weighing a quarter (0: none yet).
    /// Workers may overwrite each other's update: an estimate either way.
    nanos: AtomicU64,
}

impl ChunkCost {
    fn add(&self, puzzles: usize, took: Duration) {
        let took = (took.as_nanos() / puzzles.max(1) as u128).clamp(1, u64::MAX as u128 / 4) as u64;
        let old = self.nanos.load(Ordering::Relaxed);
        let new = if old == 0 { took } else { (old / 4) * 3 + took / 4 };
        self.nanos.store(new.max(1), Ordering::Relaxed);
    }

    /// The puzzles of the next chunk: [`CHUNK_TIME`] over the time of a
    /// puzzle, 1 to [`CHUNK`]; 1 until some puzzle is answered.
    fn chunk_limit(&self) -> usize {
        match self.nanos.load(Ordering::Relaxed) {
            0 => 1,
            nanos => (CHUNK_TIME.as_nanos() as u64 / nanos).clamp(1, CHUNK as u64) as usize,
        }
    }
}

/// N workers (each making its own varisat solvers, which are not `Send`)
/// do the jobs `produce` sends them, in order 0, 1, …, each record of a job
/// into its [`Job`] as it is answered; a writer prints the jobs in order
/// once done, calling `printed(job)` first, and a signal prints what is
/// answered of the first job not printed.
/// `produce` runs on this thread and may send a job only with a ticket from
/// the writer, so at most `WINDOW` jobs per worker are between making and
/// printing, and memory stays flat however long the input is. Sending fails
/// (broken pipe) once the writer has stopped (stdout closed).
fn ordered_pool<J: Send>(
    jobs: usize,
    renderer: Renderer,
    work: &(impl Fn(J, &mut Emitter) -> io::Result<()> + Sync),
    produce: impl FnOnce(&mut dyn FnMut(J) -> Result<()>) -> Result<()>,
    printed: impl FnMut(usize) + Send,
) -> Result<Summary> {
    const WINDOW: usize = 4;
    let (job_tx, job_rx) = mpsc::sync_channel::<(usize, Job, J)>(jobs);
    // Shared by the workers only: once they are all gone, sending fails instead of blocking.
    let job_rx = Arc::new(Mutex::new(job_rx));
    let (done_tx, done_rx) = mpsc::channel::<usize>();
    let (ticket_tx, ticket_rx) = mpsc::channel::<()>();
    for _ in 0..jobs * WINDOW {
        ticket_tx.send(())?;
    }
    let result = std::thread::scope(|scope| -> Result<Summary> {
        let mut workers = Vec::new();
        for _ in 0..jobs {
            let (job_rx, done_tx, renderer) = (Arc::clone(&job_rx), done_tx.clone(), renderer.clone());
            let worker = std::thread::Builder::new().spawn_scoped(scope, move || -> Result<Summary> {
                let mut emitter = Emitter::for_jobs(renderer);
                loop {
                    let job = job_rx.lock().map_err(|_| anyhow!("a worker thread panicked"))?.recv();
                    let Ok((number, records, job)) = job else { return Ok(emitter.summary) };
                    emitter.start(records);
                    work(job, &mut emitter)?;
                    emitter.finish();
                    if done_tx.send(number).is_err() {
                        return Ok(emitter.summary);
                    }
                }
            });
            match worker {
                Ok(worker) => workers.push(worker),
                // No more threads to be had: work with those there are.
                Err(_) if !workers.is_empty() => break,
                Err(e) => return Err(anyhow!("cannot start a worker thread: {e}")),
            }
        }
        drop(done_tx);
        drop(job_rx);
        let writer = scope.spawn(move || write_in_order(done_rx, ticket_tx, printed));
        let mut sent = 0;
        let mut send = |job: J| -> Result<()> {
            // No ticket: the writer has stopped (stdout closed); stop making jobs.
            if ticket_rx.recv().is_err() || job_tx.send((sent, Job::open(sent), job)).is_err() {
                return Err(io::Error::from(io::ErrorKind::BrokenPipe).into());
            }
            sent += 1;
            Ok(())
        };
        let produced = produce(&mut send);
        drop(job_tx);
        drop(ticket_rx);
        let mut summary = Summary::default();
        for worker in workers {
            summary = summary.merge(worker.join().map_err(|_| anyhow!("a worker thread panicked"))??);
        }
        writer.join().map_err(|_| anyhow!("the writer thread panicked"))?.context(STDOUT)?;
        produced.map(|()| summary)
    });
    Job::close_all();
    result
}

/// Make `count` records with `make(i, emitter)` for i = 0, 1, ... on `jobs`
/// threads, printed in order of i: the loop of commands that make their
/// records rather than read them (`generate`). One thread streams each
/// record as it is made; with more, a worker takes the next chunk of indices
/// only with a ticket from the writer, so at most `WINDOW` chunks per worker
/// wait to be printed.
pub fn run_indexed<F>(count: u64, renderer: Renderer, jobs: usize, make: F) -> Result<Summary>
where
    F: Fn(u64, &mut Emitter) -> io::Result<()> + Sync,
{
    let progress = Progress::counting(count, "puzzles");
    if jobs <= 1 || count <= 1 {
        let mut emitter = Emitter::direct(renderer);
        for i in 0..count {
            make(i, &mut emitter).context(STDOUT)?;
            progress.advance(1);
        }
        emitter.flush().context(STDOUT)?;
        return Ok(emitter.summary);
    }
    const CHUNK: u64 = 4;
    let work =
        |range: std::ops::Range<u64>, emitter: &mut Emitter| range.into_iter().try_for_each(|i| make(i, emitter));
    let produce = |send: &mut dyn FnMut(std::ops::Range<u64>) -> Result<()>| {
        (0..count).step_by(CHUNK as usize).try_for_each(|first| send(first..(first + CHUNK).min(count)))
    };
    let printed = |chunk: usize| progress.advance(CHUNK.min(count - chunk as u64 * CHUNK));
    ordered_pool(jobs, renderer, &work, produce, printed)
}

/// The writer of a parallel run: the jobs printed in order as they are
/// done, a ticket handed back for each job printed (whoever waits for one
/// may go on; if it has stopped, nobody needs the ticket).
/// `printed(job)` is called before each job is printed.
fn write_in_order(
    done: mpsc::Receiver<usize>,
    tickets: mpsc::Sender<()>,
    mut printed: impl FnMut(usize),
) -> io::Result<()> {
    let mut stdout = Stdout::new();
    let mut pending = BTreeSet::new();
    let mut next = 0;
    for job in done {
        pending.insert(job);
        while pending.remove(&next) {
            printed(next);
            stdout.print_job(next)?;
            next += 1;
            let _ = tickets.send(());
        }
    }
    stdout.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Chunks of one puzzle until one is answered, of [`CHUNK`] fast
    /// puzzles, of one slow puzzle, and of one again soon after the puzzles
    /// turn slow (a batch of 9x9s, then hard 25x25s).
    #[test]
    fn chunks_hold_about_chunk_time_of_work() {
        let cost = ChunkCost::default();
        assert_eq!(cost.chunk_limit(), 1);
        cost.add(64, Duration::from_micros(30 * 64));
        assert_eq!(cost.chunk_limit(), CHUNK);
        cost.add(8, Duration::from_micros(8 * 500));
        assert!((2..CHUNK).contains(&cost.chunk_limit()), "{}", cost.chunk_limit());
        for _ in 0..8 {
            cost.add(1, Duration::from_millis(200));
        }
        assert_eq!(cost.chunk_limit(), 1);
    }
}
