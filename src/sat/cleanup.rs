//! What an external solver leaves outside satdoku while it runs, its process
//! group and its temporary folder, kept in a registry: a deadline ends the
//! whole group, and a signal (Ctrl-C, SIGTERM) ends every group and removes
//! every folder before satdoku exits.
//!
//! A solver runs in a process group of its own, so that what it starts
//! (a wrapper script's solver, a portfolio's workers) is ended with it. That
//! also takes it out of the terminal's foreground group: Ctrl-C reaches only
//! satdoku, which forwards it. `tempfile`'s removal on drop does not run when
//! a signal ends the process, hence the registry of folders.

use std::io;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;
use wait_timeout::ChildExt;

/// How long a solver has to exit after SIGTERM (or the signal satdoku got)
/// before its group gets SIGKILL.
const GRACE: Duration = Duration::from_millis(200);

/// The process groups and folders alive now.
struct Registry {
    groups: Vec<i32>,
    dirs: Vec<PathBuf>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry { groups: Vec::new(), dirs: Vec::new() });

/// Set once a signal handler has started to clean up; nothing new starts after it.
static STOPPING: AtomicBool = AtomicBool::new(false);

/// The registry; a thread that panicked holding it left it consistent (every
/// change is one push or one retain).
fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(PoisonError::into_inner)
}

fn stopping() -> io::Error {
    io::Error::new(io::ErrorKind::Interrupted, "satdoku is stopping on a signal")
}

/// Once the signal handler is cleaning up, a thread whose solver has just
/// been ended waits here for the process to exit, rather than report that
/// solver's death as the puzzle's answer.
fn hold_if_stopping() {
    while STOPPING.load(Ordering::SeqCst) {
        std::thread::park();
    }
}

/// Send `signal` to the process group `pgid`: whether the group has a member
/// (zombies count). Never to group 0 or 1, or to every process (-1).
fn signal_group(pgid: i32, signal: i32) -> bool {
    // SAFETY: kill(2) takes plain integers; a negative pid names a group.
    pgid > 1 && unsafe { libc::kill(-pgid, signal) } == 0
}

/// Have the kernel SIGKILL the solver when the thread that starts it ends,
/// however it ends: SIGKILL of satdoku too, which no handler sees (Linux's
/// parent-death signal; the thread waits for its solver, so it ends first only
/// when satdoku dies). What the solver starts itself, and the temporary
/// folder, are then left behind; the signals satdoku can catch clean up all.
#[cfg(target_os = "linux")]
fn die_with_this_thread(command: &mut Command) {
    let parent = std::process::id();
    // SAFETY: the closure runs in the child between fork and exec, where only
    // async-signal-safe calls are allowed: prctl(2) and getppid(2) are, and
    // nothing is allocated.
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(io::Error::last_os_error());
            }
            // satdoku died before the signal was set: it will never come.
            if libc::getppid() as u32 != parent {
                return Err(io::Error::from_raw_os_error(libc::ESRCH));
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn die_with_this_thread(_command: &mut Command) {}

/// A temporary folder `satdoku-XXXXXX`, removed when dropped, or by the
/// signal handler when a signal ends satdoku first.
pub(crate) struct TempDir {
    dir: Option<tempfile::TempDir>,
    path: PathBuf,
}

impl TempDir {
    /// A new folder in the temporary directory (`TMPDIR`).
    pub fn new() -> io::Result<TempDir> {
        // Created and registered under the lock: a signal finds it either
        // registered or not made yet.
        let mut registry = registry();
        if STOPPING.load(Ordering::SeqCst) {
            return Err(stopping());
        }
        let dir = tempfile::Builder::new().prefix("satdoku-").tempdir()?;
        let path = dir.path().to_path_buf();
        registry.dirs.push(path.clone());
        Ok(TempDir { dir: Some(dir), path })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        // Removed before it is forgotten: a signal in between finds it gone, not leaked.
        drop(self.dir.take());
        registry().dirs.retain(|d| d != &self.path);
    }
}

/// A solver running as the leader of a process group of its own; the group
/// is ended when the solver is stopped, when it exits, and when this is dropped.
pub(crate) struct Group {
    child: Child,
    pgid: i32,
    reaped: bool,
}

impl Group {
    /// Start `command` in a new process group.
    pub fn spawn(command: &mut Command) -> io::Result<Group> {
        let mut registry = registry();
        if STOPPING.load(Ordering::SeqCst) {
            return Err(stopping());
        }
        die_with_this_thread(command);
        let mut child = command.process_group(0).spawn()?;
        let Ok(pgid) = i32::try_from(child.id()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(io::Error::other(format!("process id {} out of range", child.id())));
        };
        registry.groups.push(pgid);
        Ok(Group { child, pgid, reaped: false })
    }

    /// Wait for the solver until `deadline`: its exit status, or `None` when
    /// the deadline came first and the group was ended (TERM, then KILL
    /// after a grace period).
    pub fn wait(&mut self, deadline: Option<Instant>) -> io::Result<Option<ExitStatus>> {
        let status = match deadline {
            None => Some(self.child.wait()?),
            Some(deadline) => self.child.wait_timeout(deadline.saturating_duration_since(Instant::now()))?,
        };
        let Some(status) = status else {
            self.end(libc::SIGTERM)?;
            hold_if_stopping();
            return Ok(None);
        };
        self.reaped = true;
        hold_if_stopping();
        // What the solver left running. Its id cannot be some other group's
        // yet: a process id is reused only after the kernel has cycled
        // through the others, and a reused one leads a group only once it
        // asks to.
        if signal_group(self.pgid, libc::SIGTERM) {
            let start = Instant::now();
            while start.elapsed() < GRACE && signal_group(self.pgid, 0) {
                std::thread::sleep(Duration::from_millis(10));
            }
            signal_group(self.pgid, libc::SIGKILL);
        }
        Ok(Some(status))
    }

    /// End the group: `signal` to all of it, a grace period for the solver
    /// to exit, SIGKILL to whatever is left, and the solver reaped.
    fn end(&mut self, signal: i32) -> io::Result<()> {
        if self.reaped {
            return Ok(());
        }
        signal_group(self.pgid, signal);
        let exited = self.child.wait_timeout(GRACE)?;
        signal_group(self.pgid, libc::SIGKILL);
        if exited.is_none() {
            self.child.wait()?;
        }
        self.reaped = true;
        Ok(())
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        // On an error path (a failed wait): nothing is left running.
        let _ = self.end(libc::SIGKILL);
        let pgid = self.pgid;
        registry().groups.retain(|&g| g != pgid);
    }
}

/// From now on, SIGINT, SIGTERM and SIGHUP end satdoku cleanly: the signal
/// is forwarded to every external solver's process group (SIGKILL follows
/// after a grace period of 200 ms), every temporary folder is removed, and
/// satdoku exits with 128 + the signal's number (130 for Ctrl-C, 143 for
/// SIGTERM), printing nothing more. Call it once, before starting solvers;
/// it starts a thread that waits for the signals.
pub fn clean_up_on_signals() -> io::Result<()> {
    clean_up_on_signals_then(|| {})
}

/// [`clean_up_on_signals`], with `last` called after the solvers are ended
/// and their folders removed, right before satdoku exits: the command line
/// flushes the records it has written (`last` must not wait long: the
/// signal is there to end the process).
pub fn clean_up_on_signals_then(last: impl FnOnce() + Send + 'static) -> io::Result<()> {
    let mut signals = Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::Builder::new().name("satdoku-signals".into()).spawn(move || {
        if let Some(signal) = signals.forever().next() {
            clean_up_and_exit(signal, last);
        }
    })?;
    Ok(())
}

/// End satdoku now, cleanly, with exit code `code`, as a signal does: every
/// external solver's process group gets SIGTERM (SIGKILL after a grace
/// period of 200 ms), every temporary folder is removed, then `last` is
/// called. For the command line when its output is gone (a closed pipe:
/// `satdoku solve … | head -1` with a long search still running).
pub fn exit_cleanly(code: u8, last: impl FnOnce()) -> ! {
    end_all(libc::SIGTERM, last);
    std::process::exit(i32::from(code))
}

/// End every group, remove every folder, call `last`, and exit with 128 +
/// `signal`, holding the registry to the end so that nothing new is
/// registered.
fn clean_up_and_exit(signal: i32, last: impl FnOnce()) -> ! {
    end_all(signal, last);
    std::process::exit(128 + signal)
}

/// End every group with `signal` (SIGKILL after [`GRACE`]), remove every
/// folder and call `last`, holding the registry (and so satdoku's solvers)
/// to the end: nothing new is registered, and satdoku is to exit next.
fn end_all(signal: i32, last: impl FnOnce()) {
    let registry = {
        let registry = registry();
        STOPPING.store(true, Ordering::SeqCst);
        registry
    };
    for &pgid in &registry.groups {
        signal_group(pgid, signal);
    }
    let start = Instant::now();
    while start.elapsed() < GRACE && registry.groups.iter().any(|&pgid| signal_group(pgid, 0)) {
        std::thread::sleep(Duration::from_millis(5));
    }
    for &pgid in &registry.groups {
        signal_group(pgid, libc::SIGKILL);
    }
    for dir in &registry.dirs {
        // A file created in it meanwhile (a solver's last output) makes the
        // first try fail.
        for _ in 0..3 {
            if std::fs::remove_dir_all(dir).is_ok() || !dir.exists() {
                break;
            }
        }
    }
    last();
    std::mem::forget(registry);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alive(pid: u32) -> bool {
        // A zombie (state Z) has ended; in a container whose init does not
        // reap, orphans stay zombies.
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .is_ok_and(|stat| stat.rsplit(") ").next().is_some_and(|rest| !rest.starts_with('Z')))
    }

    /// Whether `pid` ends within seconds: a SIGKILL just sent takes a moment.
    fn ends(pid: u32) -> bool {
        let start = Instant::now();
        while alive(pid) {
            if start.elapsed() > Duration::from_secs(10) {
                return false;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        true
    }

    /// A script in a group of its own that starts `sleep 100` in the
    /// background, then does `then`: the group and the sleeper's process id.
    fn sleeper_script(then: &str) -> (Group, tempfile::TempDir, u32) {
        let dir = tempfile::tempdir().unwrap();
        let pid_file = dir.path().join("pid");
        let script = format!("sleep 100 & echo $! > '{}.tmp'; mv '{0}.tmp' '{0}'; {then}", pid_file.display());
        let group = Group::spawn(Command::new("sh").args(["-c", &script])).unwrap();
        let start = Instant::now();
        while !pid_file.exists() {
            assert!(start.elapsed() < Duration::from_secs(10), "the script did not start");
            std::thread::sleep(Duration::from_millis(10));
        }
        let sleeper = std::fs::read_to_string(&pid_file).unwrap().trim().parse().unwrap();
        (group, dir, sleeper)
    }

    #[test]
    fn a_deadline_ends_the_whole_group() {
        let (mut group, _dir, sleeper) = sleeper_script("wait");
        let leader = group.child.id();
        assert!(alive(sleeper));
        assert_eq!(group.wait(Some(Instant::now() + Duration::from_millis(100))).unwrap(), None);
        assert!(ends(leader) && ends(sleeper));
    }

    #[test]
    fn what_a_solver_leaves_running_is_ended_too() {
        let (mut group, _dir, sleeper) = sleeper_script("exit 20");
        assert_eq!(group.wait(None).unwrap().map(|status| status.code()), Some(Some(20)));
        assert!(ends(sleeper));
    }

    #[test]
    fn temporary_folders_are_registered_while_they_live() {
        let dir = TempDir::new().unwrap();
        let path = dir.path().to_path_buf();
        assert!(path.is_dir() && path.file_name().unwrap().to_string_lossy().starts_with("satdoku-"));
        assert!(registry().dirs.contains(&path));
        drop(dir);
        assert!(!path.exists() && !registry().dirs.contains(&path));
    }
}
