//! Where rendered records go: stdout's one buffer, or the jobs of a parallel
//! run that the writer prints in input order; and the flush of both when a
//! signal ends satdoku. Lock order, everywhere: the buffer, then the jobs,
//! then a job.

use std::collections::BTreeMap;
use std::io::{self, IsTerminal, Write};
use std::sync::{mpsc, Arc, Mutex, MutexGuard, Once, OnceLock, PoisonError};
use std::time::Duration;

use super::{Format, Record, Renderer, Status, Summary};
use crate::commands::progress;

/// Where a command's records go: rendered, straight to stdout and stderr, or
/// into the job a worker thread answers ([`Job`]), which the writer prints
/// in input order.
pub struct Emitter {
    pub renderer: Renderer,
    sink: Sink,
    pub summary: Summary,
}

enum Sink {
    Direct(Stdout),
    /// The job under way, none between jobs.
    Job(Option<Job>),
}

impl Emitter {
    /// Records straight to stdout and stderr.
    pub fn direct(renderer: Renderer) -> Emitter {
        Emitter { renderer, sink: Sink::Direct(Stdout::new()), summary: Summary::default() }
    }

    /// Records into the jobs of a worker thread: see [`Emitter::start`].
    pub fn for_jobs(renderer: Renderer) -> Emitter {
        Emitter { renderer, sink: Sink::Job(None), summary: Summary::default() }
    }

    /// Render the records from here on into `job`, until [`Emitter::finish`].
    pub fn start(&mut self, job: Job) {
        self.sink = Sink::Job(Some(job));
    }

    /// Mark the job under way done: every record of it is written.
    pub fn finish(&mut self) {
        if let Sink::Job(Some(job)) = &mut self.sink {
            lock(&job.0).done = true;
        }
        self.sink = Sink::Job(None);
    }

    /// Render one record.
    pub fn emit(&mut self, record: Record) -> io::Result<()> {
        self.summary.add(record.status);
        if let (Format::Svg, Some(dir)) = (self.renderer.format, &self.renderer.out_dir) {
            let mut failed = Vec::new();
            for (suffix, svg) in self.renderer.pictures(&record) {
                // Each whole under its name, and never over an input file.
                let name = format!("puzzle-{:04}{suffix}.svg", record.numbered.index);
                if let Err(e) = dir.write(&name, |out| out.write_all(svg.as_bytes())) {
                    let _ = writeln!(failed, "satdoku: {}: {e}", record.numbered.describe());
                }
            }
            if !failed.is_empty() {
                self.summary.add(Status::Error);
                self.write(&[], &failed)?;
            }
        }
        match &mut self.sink {
            Sink::Direct(stdout) => {
                let (mut out, mut err) = (Vec::new(), Vec::new());
                self.renderer.stderr(&record, &mut err);
                self.renderer.stdout(&record, &mut out);
                stdout.write_record(&out, &err)
            }
            Sink::Job(job) => {
                let mut records = lock(&job.as_ref().expect("a job is under way").0);
                let JobRecords { out, err, .. } = &mut *records;
                self.renderer.stderr(&record, err);
                self.renderer.stdout(&record, out);
                records.mark();
                Ok(())
            }
        }
    }

    /// A line for stderr only, in its place among the records (`--stats`).
    pub fn note(&mut self, text: &str) -> io::Result<()> {
        self.write(&[], format!("{text}\n").as_bytes())
    }

    fn write(&mut self, out: &[u8], err: &[u8]) -> io::Result<()> {
        match &mut self.sink {
            Sink::Direct(stdout) => stdout.write_record(out, err),
            Sink::Job(job) => {
                let mut records = lock(&job.as_ref().expect("a job is under way").0);
                records.out.extend_from_slice(out);
                records.err.extend_from_slice(err);
                records.mark();
                Ok(())
            }
        }
    }

    /// Flush what stdout holds.
    pub fn flush(&mut self) -> io::Result<()> {
        match &mut self.sink {
            Sink::Direct(stdout) => stdout.flush(),
            Sink::Job(_) => Ok(()),
        }
    }
}

/// stdout's buffer, one for the process. Each record is written into it
/// whole under its lock, so that a signal can flush what was answered before
/// it ([`flush_on_signal`]) without ever cutting a record in two.
static BUFFER: Mutex<Option<io::BufWriter<io::Stdout>>> = Mutex::new(None);

/// The records of one job of a parallel run (a chunk of puzzles), written
/// record by record as its worker answers them.
#[derive(Clone, Default)]
pub struct Job(Arc<Mutex<JobRecords>>);

#[derive(Default)]
struct JobRecords {
    out: Vec<u8>,
    err: Vec<u8>,
    /// Where each record's text ends in `out` and in `err`, so that a
    /// terminal shows each diagnostic beside its own record.
    ends: Vec<(usize, usize)>,
    /// Every record of the job is written.
    done: bool,
}

impl JobRecords {
    /// The record written last ends here.
    fn mark(&mut self) {
        self.ends.push((self.out.len(), self.err.len()));
    }

    /// Each record's text, in order, as (stdout, stderr).
    fn records(&self) -> impl Iterator<Item = (&[u8], &[u8])> {
        let starts = std::iter::once((0, 0)).chain(self.ends.iter().copied());
        starts
            .zip(&self.ends)
            .map(|((out, err), &(out_end, err_end))| (&self.out[out..out_end], &self.err[err..err_end]))
    }
}

/// The jobs of the parallel run under way made and not yet printed, by
/// number: the writer prints each once it is done, in order, and a signal
/// prints what is answered of the first of them too. There is one parallel
/// run at a time in a process.
static JOBS: Mutex<BTreeMap<usize, Job>> = Mutex::new(BTreeMap::new());

impl Job {
    /// Job `number` of the run, made in order 0, 1, …, before a worker has it.
    pub fn open(number: usize) -> Job {
        let job = Job::default();
        lock(&JOBS).insert(number, job.clone());
        job
    }

    /// Forget the jobs left unprinted (a run that ended on an error).
    pub fn close_all() {
        lock(&JOBS).clear();
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// How long a signal waits for the buffer, and then for its flush, before
/// satdoku exits without it: a writer blocked on a pipe nobody reads holds
/// the buffer, and must not keep the signal from ending satdoku.
const SIGNAL_FLUSH: Duration = Duration::from_millis(300);

/// How long an answered record may wait in stdout's buffer when stdout is
/// no terminal: a pipe's reader gets records made slowly (`generate`, hard
/// puzzles, a script that writes a puzzle and waits for its answer) as they
/// are made, while a fast batch is still written in large blocks.
const STREAM_DELAY: Duration = Duration::from_millis(100);

/// How a flush by the flusher thread failed (stdout closed or full): the
/// next record written says so, and the run stops.
static FLUSH_FAILED: OnceLock<io::ErrorKind> = OnceLock::new();

/// Start, once for the process, the thread that flushes stdout's buffer
/// every [`STREAM_DELAY`]. It never waits for the buffer: a writer that
/// holds it is writing, and flushes itself when the buffer fills.
fn start_flusher() {
    static STARTED: Once = Once::new();
    STARTED.call_once(|| {
        let pipe = stdout_is_pipe();
        let flusher = move || loop {
            std::thread::sleep(STREAM_DELAY);
            // A pipe nobody reads any more (`| head -1`): the run ends now,
            // not after the search under way (hours, for a hard puzzle).
            if pipe && reader_gone() {
                end_quietly();
            }
            let Ok(mut buffer) = BUFFER.try_lock() else { continue };
            if let Some(buffer) = buffer.as_mut().filter(|b| !b.buffer().is_empty()) {
                if let Err(e) = buffer.flush() {
                    if e.kind() == io::ErrorKind::BrokenPipe {
                        end_quietly();
                    }
                    let _ = FLUSH_FAILED.set(e.kind());
                }
            }
        };
        // Without the thread, records wait for the buffer to fill, as before.
        let _ = std::thread::Builder::new().name("stdout flusher".into()).spawn(flusher);
    });
}

/// Whether stdout is a pipe.
fn stdout_is_pipe() -> bool {
    // SAFETY: fstat(2) fills the zeroed struct it is given, for a plain fd.
    let mut stat: libc::stat = unsafe { std::mem::zeroed() };
    (unsafe { libc::fstat(libc::STDOUT_FILENO, &mut stat) }) == 0 && stat.st_mode & libc::S_IFMT == libc::S_IFIFO
}

/// Whether stdout is a pipe whose reading end is closed: poll(2) says
/// POLLERR for the writing end of such a pipe, without writing to it.
fn reader_gone() -> bool {
    let mut fd = libc::pollfd { fd: libc::STDOUT_FILENO, events: 0, revents: 0 };
    // SAFETY: one valid pollfd, and no wait.
    let ready = unsafe { libc::poll(&mut fd, 1, 0) };
    ready > 0 && fd.revents & libc::POLLERR != 0
}

/// Stdout is gone: end as a closed pipe ends satdoku (exit 0), at once,
/// with external solvers ended and no output file left half-written.
fn end_quietly() -> ! {
    satdoku::exit_cleanly(0, crate::commands::files::remove_partial_on_signal)
}

/// Buffered stdout, flushed after every record when a person reads it live,
/// and else at least every [`STREAM_DELAY`] while records wait in it.
pub struct Stdout {
    eager: bool,
}

impl Stdout {
    pub fn new() -> Stdout {
        let eager = io::stdout().is_terminal();
        if !eager {
            start_flusher();
        }
        Stdout { eager }
    }

    /// Write one record's (or one chunk's) text: the diagnostics to stderr,
    /// the data to stdout.
    pub fn write_record(&mut self, out: &[u8], err: &[u8]) -> io::Result<()> {
        if self.eager || !err.is_empty() {
            // What goes to a terminal goes around the progress bar.
            return progress::suspend(|| self.write_now(out, err));
        }
        self.write_now(out, err)
    }

    fn write_now(&mut self, out: &[u8], err: &[u8]) -> io::Result<()> {
        self.write_into(&mut lock(&BUFFER), out, err)
    }

    /// Print job `number` of a parallel run, done, and forget it. It leaves
    /// [`JOBS`] with stdout's buffer held, so that a signal finds it in one
    /// place or the other, never in neither nor in both.
    pub fn print_job(&mut self, number: usize) -> io::Result<()> {
        let Some(job) = lock(&JOBS).get(&number).cloned() else { return Ok(()) };
        // What goes to a terminal goes around the progress bar.
        let around_bar = self.eager || !lock(&job.0).err.is_empty();
        let mut print = || {
            let mut buffer = lock(&BUFFER);
            lock(&JOBS).remove(&number);
            let records = std::mem::take(&mut *lock(&job.0));
            if !self.eager || records.err.is_empty() {
                return self.write_into(&mut buffer, &records.out, &records.err);
            }
            // On a terminal, each diagnostic after the records before it.
            let written = records.records().try_for_each(|(out, err)| self.write_into(&mut buffer, out, err));
            written
        };
        match around_bar {
            true => progress::suspend(print),
            false => print(),
        }
    }

    fn write_into(&mut self, buffer: &mut Option<io::BufWriter<io::Stdout>>, out: &[u8], err: &[u8]) -> io::Result<()> {
        if let Some(&kind) = FLUSH_FAILED.get() {
            return Err(kind.into());
        }
        let buffer = buffer.get_or_insert_with(|| io::BufWriter::with_capacity(1 << 16, io::stdout()));
        if !err.is_empty() {
            // On a terminal, what came before goes first.
            if self.eager {
                buffer.flush()?;
            }
            // Diagnostics that cannot be written (stderr closed) are dropped, not fatal.
            let _ = io::stderr().lock().write_all(err);
        }
        buffer.write_all(out)?;
        if self.eager {
            buffer.flush()?;
        }
        Ok(())
    }

    pub fn flush(&mut self) -> io::Result<()> {
        lock(&BUFFER).as_mut().map_or(Ok(()), io::Write::flush)
    }
}

/// Flush the records written so far, whole, as a signal ends satdoku:
/// answered records are never lost to the buffer. A writer stuck on a full
/// pipe holds the buffer, and a flush into it would block too: past
/// [`SIGNAL_FLUSH`] for each, satdoku exits without them.
pub fn flush_on_signal() {
    crate::commands::progress::clear_for_exit();
    let Some(mut buffer) = crate::commands::lock_within(&BUFFER, SIGNAL_FLUSH) else { return };
    // The jobs of a parallel run not printed yet, in order, up to the first
    // one not done: the records answered of it so far.
    let (mut out, mut err) = (Vec::new(), Vec::new());
    for job in lock(&JOBS).values() {
        let records = lock(&job.0);
        out.extend_from_slice(&records.out);
        err.extend_from_slice(&records.err);
        if !records.done {
            break;
        }
    }
    let pending = match buffer.take() {
        None if out.is_empty() && err.is_empty() => None,
        pending => Some(pending.unwrap_or_else(|| io::BufWriter::new(io::stdout()))),
    };
    if let Some(mut pending) = pending {
        let (done, flushed) = mpsc::channel();
        // A flush blocked on the pipe stays behind on its own thread.
        let flusher = std::thread::Builder::new().spawn(move || {
            let _ = io::stderr().lock().write_all(&err);
            let _ = pending.write_all(&out);
            let _ = pending.flush();
            let _ = done.send(());
        });
        if flusher.is_ok() {
            let _ = flushed.recv_timeout(SIGNAL_FLUSH);
        }
    }
    // No record after the signal: the buffer stays locked until the exit.
    std::mem::forget(buffer);
}
