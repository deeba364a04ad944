//! Batches: every puzzle of every input read in order, answered on one thread
//! or several, and written in input order (stdout and stderr alike).

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::PathBuf;
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{anyhow, Context, Result};

use satdoku::{Entry, ParseError, ParseErrorKind, Position, PuzzleReader};

use super::output::{Emitter, Renderer, Stdout, Summary};
use super::progress::Progress;
use super::Setup;

/// One puzzle read from the inputs, numbered across all of them.
pub struct Numbered {
    /// 1-based position among all the puzzles of all inputs.
    pub index: usize,
    pub entry: Entry,
    /// The time it took to read (`--stats`).
    pub read: Duration,
    /// The threads this puzzle's own search may use: `--jobs` when it is
    /// the only puzzle of the input (`solve` then races that many solvers on
    /// it), else 1 (the threads answer different puzzles).
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

/// Read every puzzle of every input in order (stdin for none or `-`), calling
/// `each` on it. An input that cannot be opened is one invalid entry.
pub fn for_each_puzzle(
    files: &[PathBuf],
    setup: &mut Setup,
    mut each: impl FnMut(Numbered) -> Result<()>,
) -> Result<()> {
    let stdin = [PathBuf::from("-")];
    let given = [PathBuf::new()];
    if setup.input.is_some() && !files.is_empty() {
        anyhow::bail!("--fpuzzles brings its own puzzle: give no puzzle files with it");
    }
    let files = match (&setup.input, files.is_empty()) {
        (Some(_), _) => &given[..],
        (None, true) => &stdin[..],
        (None, false) => files,
    };
    let mut index = setup.chunk.puzzles_before;
    let mut progress = Progress::new(files);
    for path in files {
        let stdin = path.as_os_str() == "-";
        let (input, name): (Box<dyn BufRead>, String) = if let Some((name, text)) = &setup.input {
            (Box::new(io::Cursor::new(text.clone().into_bytes())), name.clone())
        } else if stdin {
            (Box::new(io::stdin().lock()), setup.chunk.stdin_name.clone())
        } else {
            let name = path.display().to_string();
            match File::open(path) {
                Ok(f) => (Box::new(BufReader::with_capacity(1 << 16, progress.count_bytes(f))), name),
                Err(e) => {
                    index += 1;
                    let position = Position { source: name, line: 0, column: None };
                    let kind = ParseErrorKind::Io(format!("cannot open: {e}"));
                    let error = ParseError { position: position.clone(), kind };
                    let entry = Entry { position, name: None, puzzle: Err(error) };
                    each(Numbered { index, entry, read: Duration::ZERO, threads: 1 })?;
                    continue;
                }
            }
        };
        let lines_before = if stdin { setup.chunk.lines_before } else { 0 };
        let mut reader =
            PuzzleReader::new(input, name, &setup.alphabet, &mut setup.spec).starting_after_line(lines_before);
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
    }
    progress.finish();
    Ok(())
}

/// Answer every puzzle of `files` with `answer`, on `jobs` threads, records
/// in input order. With several threads, an input of one puzzle hands them
/// all to that puzzle ([`Numbered::threads`]).
pub fn run<F>(files: &[PathBuf], setup: &mut Setup, renderer: Renderer, jobs: usize, answer: F) -> Result<Summary>
where
    F: Fn(&Numbered, &mut Emitter) -> io::Result<()> + Sync,
{
    let mut puzzles = 0;
    let summary = if jobs <= 1 {
        let mut emitter = Emitter::direct(renderer);
        for_each_puzzle(files, setup, |numbered| {
            puzzles += 1;
            answer(&numbered, &mut emitter).context(STDOUT)
        })?;
        emitter.flush().context(STDOUT)?;
        emitter.summary
    } else {
        run_parallel(files, setup, renderer, jobs, &answer, &mut puzzles)?
    };
    if puzzles == 0 {
        let _ = writeln!(io::stderr(), "satdoku: no puzzle in the input (only blank, comment or title lines)");
    }
    Ok(summary)
}

/// What a failed write to stdout says (a closed pipe ends the run quietly instead).
pub const STDOUT: &str = "cannot write to standard output";

/// `--jobs N`: the main thread reads, N workers (each making its own varisat
/// solvers, which are not `Send`) answer chunks of puzzles into buffers, a
/// writer prints the buffers in input order. At most `WINDOW` chunks per
/// worker are between reading and printing, so memory stays flat however long
/// the input is; chunks keep the hand-offs rare next to ~30 µs puzzles.
fn run_parallel<F>(
    files: &[PathBuf],
    setup: &mut Setup,
    renderer: Renderer,
    jobs: usize,
    answer: &F,
    puzzles: &mut usize,
) -> Result<Summary>
where
    F: Fn(&Numbered, &mut Emitter) -> io::Result<()> + Sync,
{
    const CHUNK: usize = 64;
    const WINDOW: usize = 4;
    let (job_tx, job_rx) = mpsc::sync_channel::<(usize, Vec<Numbered>)>(jobs);
    // Shared by the workers only: once they are all gone, sending fails instead of blocking.
    let job_rx = Arc::new(Mutex::new(job_rx));
    let (done_tx, done_rx) = mpsc::channel::<(usize, Vec<u8>, Vec<u8>)>();
    let (ticket_tx, ticket_rx) = mpsc::channel::<()>();
    for _ in 0..jobs * WINDOW {
        ticket_tx.send(())?;
    }
    std::thread::scope(|scope| -> Result<Summary> {
        let mut workers = Vec::new();
        for _ in 0..jobs {
            let (job_rx, done_tx, renderer) = (Arc::clone(&job_rx), done_tx.clone(), renderer.clone());
            let worker = std::thread::Builder::new().spawn_scoped(scope, move || -> Result<Summary> {
                let mut emitter = Emitter::buffered(renderer);
                loop {
                    let job = job_rx.lock().map_err(|_| anyhow!("a worker thread panicked"))?.recv();
                    let Ok((chunk, puzzles)) = job else { return Ok(emitter.summary) };
                    for numbered in &puzzles {
                        answer(numbered, &mut emitter)?;
                    }
                    let (out, err) = emitter.take();
                    if done_tx.send((chunk, out, err)).is_err() {
                        return Ok(emitter.summary);
                    }
                }
            });
            match worker {
                Ok(worker) => workers.push(worker),
                // No more threads to be had: answer with those there are.
                Err(_) if !workers.is_empty() => break,
                Err(e) => return Err(anyhow!("cannot start a worker thread: {e}")),
            }
        }
        drop(done_tx);
        drop(job_rx);
        let writer = scope.spawn(move || -> io::Result<()> {
            let mut stdout = Stdout::new();
            let mut pending = BTreeMap::new();
            let mut next = 0;
            for (chunk, out, err) in done_rx {
                pending.insert(chunk, (out, err));
                while let Some((out, err)) = pending.remove(&next) {
                    stdout.write_record(&out, &err)?;
                    next += 1;
                    // The reader may go on; if it has stopped, nobody needs the ticket.
                    let _ = ticket_tx.send(());
                }
            }
            stdout.flush()
        });
        let mut chunk = Vec::with_capacity(CHUNK);
        let mut chunks = 0;
        let mut send = |puzzles: Vec<Numbered>| -> Result<()> {
            // No ticket: the writer has stopped (stdout closed); stop reading.
            if ticket_rx.recv().is_err() || job_tx.send((chunks, puzzles)).is_err() {
                return Err(io::Error::from(io::ErrorKind::BrokenPipe).into());
            }
            chunks += 1;
            Ok(())
        };
        let mut read = for_each_puzzle(files, setup, |numbered| {
            *puzzles += 1;
            chunk.push(numbered);
            if chunk.len() == CHUNK {
                send(std::mem::replace(&mut chunk, Vec::with_capacity(CHUNK)))?;
            }
            Ok(())
        });
        if read.is_ok() && !chunk.is_empty() {
            // The input's only puzzle may use every thread (the others would idle).
            if *puzzles == 1 {
                chunk[0].threads = jobs;
            }
            read = send(chunk);
        }
        drop(job_tx);
        drop(ticket_rx);
        let mut summary = Summary::default();
        for worker in workers {
            summary = summary.merge(worker.join().map_err(|_| anyhow!("a worker thread panicked"))??);
        }
        writer.join().map_err(|_| anyhow!("the writer thread panicked"))?.context(STDOUT)?;
        read.map(|()| summary)
    })
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
    const WINDOW: usize = 4;
    let chunks = count.div_ceil(CHUNK);
    let next = std::sync::atomic::AtomicU64::new(0);
    let (done_tx, done_rx) = mpsc::channel::<(u64, Vec<u8>, Vec<u8>)>();
    let (ticket_tx, ticket_rx) = mpsc::channel::<()>();
    for _ in 0..jobs * WINDOW {
        ticket_tx.send(())?;
    }
    let ticket_rx = Mutex::new(ticket_rx);
    std::thread::scope(|scope| -> Result<Summary> {
        let mut workers = Vec::new();
        for _ in 0..jobs {
            let (done_tx, renderer, next, ticket_rx, make) =
                (done_tx.clone(), renderer.clone(), &next, &ticket_rx, &make);
            let worker = std::thread::Builder::new().spawn_scoped(scope, move || -> Result<Summary> {
                let mut emitter = Emitter::buffered(renderer);
                loop {
                    // No ticket: the writer has stopped (stdout closed).
                    if ticket_rx.lock().map_err(|_| anyhow!("a worker thread panicked"))?.recv().is_err() {
                        return Ok(emitter.summary);
                    }
                    let chunk = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    if chunk >= chunks {
                        return Ok(emitter.summary);
                    }
                    for i in chunk * CHUNK..((chunk + 1) * CHUNK).min(count) {
                        make(i, &mut emitter)?;
                    }
                    let (out, err) = emitter.take();
                    if done_tx.send((chunk, out, err)).is_err() {
                        return Ok(emitter.summary);
                    }
                }
            });
            match worker {
                Ok(worker) => workers.push(worker),
                Err(_) if !workers.is_empty() => break,
                Err(e) => return Err(anyhow!("cannot start a worker thread: {e}")),
            }
        }
        drop(done_tx);
        let progress = &progress;
        let writer = scope.spawn(move || -> io::Result<()> {
            let mut stdout = Stdout::new();
            let mut pending = BTreeMap::new();
            let mut next = 0;
            for (chunk, out, err) in done_rx {
                pending.insert(chunk, (out, err));
                while let Some((out, err)) = pending.remove(&next) {
                    progress.advance(CHUNK.min(count - next * CHUNK));
                    stdout.write_record(&out, &err)?;
                    next += 1;
                    let _ = ticket_tx.send(());
                }
            }
            stdout.flush()
        });
        let mut summary = Summary::default();
        let mut failed = None;
        for worker in workers {
            match worker.join().map_err(|_| anyhow!("a worker thread panicked"))? {
                Ok(s) => summary = summary.merge(s),
                Err(e) => failed = failed.or(Some(e)),
            }
        }
        writer.join().map_err(|_| anyhow!("the writer thread panicked"))?.context(STDOUT)?;
        match failed {
            Some(e) => Err(e),
            None => Ok(summary),
        }
    })
}
