//! The files the commands write (`--out`, `--out-dir`, `--proof`,
//! `--proof-dir`): never one of the run's input files, and never
//! half-written under their own name, not even when a signal ends satdoku.
//!
//! A file is written under a hidden temporary name beside its own,
//! `.puzzle-0001.cnf.XXXXXX.partial`, and renamed to its name once it is
//! whole and flushed: a rename replaces a name at once, so a file that has
//! its name is finished. The temporary files are kept in a registry, so
//! that a signal (whose exit runs no destructor) removes them too.

use std::ffi::OsString;
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::os::fd::AsFd;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use tempfile::NamedTempFile;

/// The files a run reads, each known by its device and inode, so that an
/// output is recognized as one of them by any path (`./p.txt`, a link).
#[derive(Clone, Debug, Default)]
pub struct Inputs(Arc<[Input]>);

#[derive(Debug)]
struct Input {
    dev: u64,
    ino: u64,
    /// How the run names it.
    name: String,
}

impl Inputs {
    /// The files at `paths` as they are now; `-` is the file on stdin when
    /// stdin is one (`< puzzles.txt`). A path that names nothing is left
    /// out: the reader says so, and writing it destroys nothing.
    pub fn new(paths: &[PathBuf]) -> Inputs {
        let input = |path: &PathBuf| {
            let (metadata, name) = match path.as_os_str() == "-" {
                // A file on stdin is read by its descriptor.
                true => (
                    io::stdin().as_fd().try_clone_to_owned().and_then(|fd| File::from(fd).metadata()),
                    "read on stdin".to_string(),
                ),
                false => (fs::metadata(path), path.display().to_string()),
            };
            metadata.ok().map(|m| Input { dev: m.dev(), ino: m.ino(), name })
        };
        Inputs(paths.iter().filter_map(input).collect())
    }

    /// The input file that `output` is, if it is one. Only a file can be
    /// destroyed: not /dev/null, a terminal or a pipe, though stdin reads it.
    fn holding(&self, output: &Path) -> Option<&str> {
        let out = fs::metadata(output).ok().filter(|m| m.is_file())?;
        self.0.iter().find(|input| input.dev == out.dev() && input.ino == out.ino()).map(|input| input.name.as_str())
    }

    /// `output`, the file of `option`, refused when it is one of these files.
    pub fn refuse(&self, option: &str, output: &Path) -> Result<(), WriteError> {
        match self.holding(output) {
            Some(input) => Err(WriteError::Input { option: option.into(), path: output.into(), input: input.into() }),
            None => Ok(()),
        }
    }
}

/// Why a file was not written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("{option} {}: that is the input file {input}, which writing it would destroy", path.display())]
    Input { option: String, path: PathBuf, input: String },
    #[error("{}: cannot write it: {error}", path.display())]
    Io { path: PathBuf, error: io::Error },
    #[error("{option} {}: that is a directory, not a file", path.display())]
    Directory { option: String, path: PathBuf },
    #[error("{option} {}: that is no regular file (a device, a pipe, or a descriptor such as /dev/stdout); a proof is written beside its CNF, FILE.cnf, each under a temporary name and then renamed: name a file (e.g. proof.drat)", path.display())]
    NotAFile { option: String, path: PathBuf },
}

impl WriteError {
    /// Whether the write stopped at its deadline ([`Deadlined`]).
    pub fn timed_out(&self) -> bool {
        matches!(self, WriteError::Io { error, .. } if error.kind() == io::ErrorKind::TimedOut)
    }
}

/// `path`, for `option`, refused unless it names a regular file or
/// nothing yet: what a proof needs, whose CNF goes beside it. A descriptor
/// link to a file (/dev/stdout redirected to out.txt) is refused too.
pub fn refuse_no_file(option: &str, path: &Path) -> Result<(), WriteError> {
    let refused = |directory| match directory {
        true => Err(WriteError::Directory { option: option.into(), path: path.into() }),
        false => Err(WriteError::NotAFile { option: option.into(), path: path.into() }),
    };
    match fs::metadata(path) {
        Ok(metadata) if metadata.is_dir() => refused(true),
        Ok(metadata) if !metadata.is_file() => refused(false),
        _ if through_descriptor(path) => refused(false),
        _ => Ok(()),
    }
}

/// Whether a file can be written at `path`: checked before any puzzle,
/// where writing it would otherwise fail after the work of making it (a
/// missing or read-only directory). What is written in place is not tried.
pub fn check_writable(path: &Path) -> Result<(), WriteError> {
    let existing = fs::metadata(path).ok();
    match rename_target(path, existing.as_ref()) {
        Some(target) => {
            check_dir_writable(staging_dir(&target)).map_err(|error| WriteError::Io { path: path.to_path_buf(), error })
        }
        None => Ok(()),
    }
}

/// Whether files can be made in `dir`: a temporary file is made there and
/// removed, under the registry's lock (a signal finds it made and removed,
/// or not made).
pub fn check_dir_writable(dir: &Path) -> io::Result<()> {
    let _registry = partial();
    let probe = tempfile::Builder::new().prefix(".satdoku-").suffix(".partial").tempfile_in(dir);
    probe.map(drop).map_err(|error| no_temp_file(error, dir))
}

/// The directory a file renamed onto `target` is staged in: its own.
fn staging_dir(target: &Path) -> &Path {
    target.parent().filter(|dir| !dir.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

/// A writer that fails with [`io::ErrorKind::TimedOut`] once `deadline`
/// has passed (read every 64 KiB): writing a proof's CNF of millions of
/// clauses takes seconds, and `--timeout` bounds the whole proof.
pub struct Deadlined<'w, W> {
    inner: &'w mut W,
    deadline: Option<Instant>,
    unread: usize,
}

impl<'w, W: Write> Deadlined<'w, W> {
    pub fn new(inner: &'w mut W, deadline: Option<Instant>) -> Self {
        Deadlined { inner, deadline, unread: 0 }
    }
}

impl<W: Write> Write for Deadlined<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.unread += buf.len();
        if self.unread >= 1 << 16 {
            self.unread = 0;
            if self.deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                return Err(io::Error::new(io::ErrorKind::TimedOut, "past --timeout"));
            }
        }
        self.inner.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// What a file is written through: a buffer (concrete, so that the many
/// small writes of a CNF are inlined).
pub type Out<'a> = BufWriter<&'a File>;

/// A directory that a command writes a file per puzzle into (`--out-dir`,
/// `--proof-dir`), none of them one of the run's input files.
#[derive(Clone, Debug)]
pub struct OutDir {
    option: &'static str,
    dir: PathBuf,
    inputs: Inputs,
}

impl OutDir {
    /// The directory `dir` of `option`, made with its parents if it is not there.
    pub fn create(option: &'static str, dir: &Path, inputs: &Inputs) -> anyhow::Result<OutDir> {
        super::create_dir(option, dir)?;
        // Checked before any puzzle, not as each file fails after its work.
        check_dir_writable(dir).map_err(|e| anyhow::anyhow!("{option} {}: cannot write in it: {e}", dir.display()))?;
        Ok(OutDir { option, dir: dir.to_path_buf(), inputs: inputs.clone() })
    }

    /// The path of the file `name` in it.
    pub fn join(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// The file `name` in it refused when it is one of the input files:
    /// checked before the work of making it, as [`stage`] checks again.
    pub fn refuse(&self, name: &str) -> Result<(), WriteError> {
        self.inputs.refuse(self.option, &self.join(name))
    }

    /// Write the file `name` in it, whole: see [`write_file`].
    pub fn write(&self, name: &str, write: impl FnOnce(&mut Out) -> io::Result<()>) -> Result<(), WriteError> {
        write_file(self.option, &self.join(name), &self.inputs, write)
    }
}

/// Write the file at `path`, for `option`, whole or not at all: refused
/// when it is one of the `inputs`, else written by `write` under a
/// temporary name and then renamed to `path`. On an error, `path` is left
/// as it was.
pub fn write_file(
    option: &str,
    path: &Path,
    inputs: &Inputs,
    write: impl FnOnce(&mut Out) -> io::Result<()>,
) -> Result<(), WriteError> {
    commit(vec![stage(option, path, inputs, write)?])
}

/// A file written whole under a temporary name beside its own, waiting for
/// [`commit`] to give it its name; removed if dropped before.
pub struct Staged {
    /// None once committed, and for what is no file (written in place).
    temp: Option<NamedTempFile>,
    /// The file renamed over: `path`, or the file a link at `path` names.
    target: PathBuf,
    /// As the command named it, for messages.
    path: PathBuf,
}

impl Drop for Staged {
    fn drop(&mut self) {
        if let Some(temp) = self.temp.take() {
            // Removed before it is forgotten: a signal in between finds it gone.
            let path = temp.path().to_path_buf();
            drop(temp);
            partial().paths.retain(|p| *p != path);
        }
    }
}

/// Write the file at `path`, for `option`, under a temporary name: refused
/// when it is one of the `inputs`. What is no file (/dev/null, /dev/stdout,
/// a pipe) is written in place: it has no name that could look finished.
pub fn stage(
    option: &str,
    path: &Path,
    inputs: &Inputs,
    write: impl FnOnce(&mut Out) -> io::Result<()>,
) -> Result<Staged, WriteError> {
    inputs.refuse(option, path)?;
    let failed = |error: io::Error| WriteError::Io { path: path.to_path_buf(), error };
    let existing = fs::metadata(path).ok();
    if existing.as_ref().is_some_and(fs::Metadata::is_dir) {
        return Err(WriteError::Directory { option: option.into(), path: path.into() });
    }
    let target = rename_target(path, existing.as_ref());
    let Some((target, name)) = target.and_then(|target| Some((target.clone(), target.file_name()?.to_owned()))) else {
        // Stdout closed when satdoku started is /dev/null now (the runtime
        // opens it so): the output would be lost without a word.
        if let (Some(why), true) = (super::streams::stdout_unusable(), is_stdout(path)) {
            let lost = format!("it is stdout, which is {why}: the output would be lost");
            return Err(failed(io::Error::other(lost)));
        }
        let file = File::create(path).map_err(failed)?;
        let mut out = BufWriter::with_capacity(1 << 16, &file);
        write(&mut out).and_then(|()| out.flush()).map_err(failed)?;
        return Ok(Staged { temp: None, target: path.to_path_buf(), path: path.to_path_buf() });
    };
    let dir = staging_dir(&target);
    let mut prefix = OsString::from(".");
    prefix.push(name);
    prefix.push(".");
    let staged = {
        // Created and registered under the lock: a signal finds it either
        // registered or not made yet.
        let mut registry = partial();
        if registry.stopping {
            return Err(failed(io::Error::new(io::ErrorKind::Interrupted, "satdoku is stopping on a signal")));
        }
        let temp = tempfile::Builder::new()
            .prefix(&prefix)
            .suffix(".partial")
            // What `File::create` gives a new file; an existing one keeps its own (below).
            .permissions(fs::Permissions::from_mode(0o666))
            .tempfile_in(dir)
            .map_err(|error| failed(no_temp_file(error, dir)))?;
        registry.paths.push(temp.path().to_path_buf());
        Staged { temp: Some(temp), target, path: path.to_path_buf() }
    };
    if let Some(temp) = &staged.temp {
        let mut out = BufWriter::with_capacity(1 << 16, temp.as_file());
        write(&mut out).and_then(|()| out.flush()).map_err(failed)?;
        drop(out);
        if let Some(existing) = existing {
            temp.as_file().set_permissions(existing.permissions()).map_err(failed)?;
        }
    }
    Ok(staged)
}

/// The file that writing `path` renames over: `path`, or the file a link
/// at `path` names. `None` for what is written in place: what is no file
/// (/dev/null, a pipe), a link to nothing yet, and a descriptor link
/// (/dev/stdout, /dev/fd/3) whatever it has open: resolved, /dev/stdout
/// redirected to out.txt named out.txt, and the file renamed over it
/// replaced what satdoku had printed there.
fn rename_target(path: &Path, existing: Option<&fs::Metadata>) -> Option<PathBuf> {
    match existing {
        Some(metadata) if !metadata.is_file() => None,
        _ if through_descriptor(path) => None,
        // A link to a file: the file it names is written, as it was before.
        _ if path.is_symlink() => fs::canonicalize(path).ok(),
        _ => Some(path.to_path_buf()),
    }
}

/// Whether `path` reaches its file through a link of /proc: a descriptor
/// (/dev/stdout is /proc/self/fd/1, /dev/fd/3 is /proc/self/fd/3), which
/// names whatever file is open on it, not a file of that name.
fn through_descriptor(path: &Path) -> bool {
    descriptor_link(path).is_some()
}

/// Whether `path` is stdout (/dev/stdout, /dev/fd/1, /proc/self/fd/1).
fn is_stdout(path: &Path) -> bool {
    descriptor_link(path).is_some_and(|link| {
        link.file_name().is_some_and(|n| n == "1") && link.parent().and_then(Path::file_name).is_some_and(|d| d == "fd")
    })
}

/// The link of /proc that `path` reaches its file through, if any.
fn descriptor_link(path: &Path) -> Option<PathBuf> {
    let proc = fs::metadata("/proc").ok()?.dev();
    let mut hop = path.to_path_buf();
    // At most as many links as the kernel follows (ELOOP past 40).
    for _ in 0..40 {
        let metadata = fs::symlink_metadata(&hop).ok()?;
        if !metadata.file_type().is_symlink() {
            return None;
        }
        if metadata.dev() == proc {
            return Some(hop);
        }
        let target = fs::read_link(&hop).ok()?;
        hop = hop.parent().map_or(target.clone(), |dir| dir.join(&target));
    }
    None
}

/// Why no temporary file could be made in `dir`, without its name:
/// tempfile's error names the hidden `.p.cnf.XXXXXX.partial`, a file the
/// user never named.
fn no_temp_file(error: io::Error, dir: &Path) -> io::Error {
    let why = match error.kind() {
        io::ErrorKind::NotFound if !dir.is_dir() => format!("there is no directory {}", dir.display()),
        // `/proc` and `/sys` are directories where no file can be made, and say so with ENOENT.
        io::ErrorKind::NotFound => format!("the file system of {} takes no new files", dir.display()),
        io::ErrorKind::PermissionDenied => format!("the directory {} is not writable", dir.display()),
        kind => format!("cannot make a file in {}: {kind}", dir.display()),
    };
    io::Error::new(error.kind(), why)
}

/// Give staged files their names, in order, under one hold of the
/// registry: a signal ends satdoku before them all or after them all (a
/// proof is never left beside the CNF of an earlier run). After a rename
/// that fails, the rest are removed.
pub fn commit(files: Vec<Staged>) -> Result<(), WriteError> {
    let mut registry = partial();
    let mut result = Ok(());
    for mut staged in files {
        // Taken here, so that its drop does not take the registry again.
        let Some(temp) = staged.temp.take() else { continue };
        let temp_path = temp.path().to_path_buf();
        if result.is_ok() {
            if let Err(e) = temp.persist(&staged.target) {
                result = Err(WriteError::Io { path: staged.path.clone(), error: e.error });
            }
        }
        registry.paths.retain(|p| *p != temp_path);
    }
    result
}

/// The temporary files being written, and whether a signal is ending satdoku.
struct Partial {
    paths: Vec<PathBuf>,
    stopping: bool,
}

static PARTIAL: Mutex<Partial> = Mutex::new(Partial { paths: Vec::new(), stopping: false });

/// The registry; a thread that panicked holding it left it consistent
/// (every change is one push or one retain).
fn partial() -> MutexGuard<'static, Partial> {
    PARTIAL.lock().unwrap_or_else(PoisonError::into_inner)
}

/// How long a signal waits for the registry: it is held only to create or
/// rename a file.
const SIGNAL_WAIT: Duration = Duration::from_millis(300);

/// Remove the temporary files being written, as a signal ends satdoku, and
/// hold the registry until the exit: no file is started or renamed into
/// place after it. A file that has its name is whole, signal or not.
pub fn remove_partial_on_signal() {
    // Past the wait, left behind under their temporary names, which no one
    // mistakes for finished files.
    let Some(mut registry) = super::lock_within(&PARTIAL, SIGNAL_WAIT) else { return };
    registry.stopping = true;
    for path in &registry.paths {
        let _ = fs::remove_file(path);
    }
    std::mem::forget(registry);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names in `dir`, sorted.
    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> =
            fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        names
    }

    #[test]
    fn a_file_is_written_whole_under_its_name() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.cnf");
        write_file("--out", &path, &Inputs::default(), |out| out.write_all(b"p cnf 1 1\n1 0\n")).unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"p cnf 1 1\n1 0\n");
        assert_eq!(names(dir.path()), ["out.cnf"]);
        assert!(!partial().paths.iter().any(|p| p.starts_with(dir.path())));
    }

    /// A write that fails halfway (a full disk, a bug) leaves no file of
    /// that name, nor its temporary file; a file already there is kept.
    #[test]
    fn a_failed_write_leaves_no_file_of_its_name() {
        let dir = tempfile::tempdir().unwrap();
        let fail = |out: &mut Out| {
            out.write_all(&[b'x'; 100_000])?;
            Err(io::Error::other("disk full"))
        };
        let path = dir.path().join("new.cnf");
        let error = write_file("--out", &path, &Inputs::default(), fail).unwrap_err();
        assert!(error.to_string().contains("new.cnf: cannot write it: disk full"), "{error}");
        assert!(names(dir.path()).is_empty(), "{:?}", names(dir.path()));
        let old = dir.path().join("old.cnf");
        fs::write(&old, "before").unwrap();
        assert!(write_file("--out", &old, &Inputs::default(), fail).is_err());
        assert_eq!(fs::read_to_string(&old).unwrap(), "before");
        assert_eq!(names(dir.path()), ["old.cnf"]);
    }

    /// Until it is committed, a staged file is only a hidden temporary
    /// file; dropped, it is gone.
    #[test]
    fn a_staged_file_has_no_name_until_committed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("puzzle-0001.drat");
        let staged = stage("--proof-dir", &path, &Inputs::default(), |out| out.write_all(b"d 1 0\n")).unwrap();
        let [temp] = &names(dir.path())[..] else { panic!("{:?}", names(dir.path())) };
        assert!(temp.starts_with(".puzzle-0001.drat.") && temp.ends_with(".partial"), "{temp}");
        assert!(!path.exists());
        drop(staged);
        assert!(names(dir.path()).is_empty());
        let staged = stage("--proof-dir", &path, &Inputs::default(), |out| out.write_all(b"d 1 0\n")).unwrap();
        commit(vec![staged]).unwrap();
        assert_eq!(names(dir.path()), ["puzzle-0001.drat"]);
    }

    /// An input file, by any path (a link too), is refused and kept.
    #[test]
    fn an_input_file_is_never_written() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("puzzle-0001.cnf");
        fs::write(&input, "1...5.2.9\n").unwrap();
        let link = dir.path().join("link.cnf");
        std::os::unix::fs::symlink(&input, &link).unwrap();
        let inputs = Inputs::new(&[dir.path().join(".").join("puzzle-0001.cnf")]);
        for path in [&input, &link] {
            let error = write_file("--out-dir", path, &inputs, |out| out.write_all(b"p cnf")).unwrap_err();
            assert!(matches!(error, WriteError::Input { .. }), "{error}");
            assert!(error.to_string().contains("which writing it would destroy"), "{error}");
        }
        assert_eq!(fs::read_to_string(&input).unwrap(), "1...5.2.9\n");
        assert_eq!(names(dir.path()), ["link.cnf", "puzzle-0001.cnf"]);
    }

    /// A link to a file that is no input is written through, as before;
    /// an existing file keeps its permissions.
    #[test]
    fn a_link_is_written_through_and_permissions_kept() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("real.cnf");
        fs::write(&file, "old").unwrap();
        fs::set_permissions(&file, fs::Permissions::from_mode(0o640)).unwrap();
        let link = dir.path().join("link.cnf");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        write_file("--out", &link, &Inputs::default(), |out| out.write_all(b"new")).unwrap();
        assert!(link.is_symlink());
        assert_eq!(fs::read_to_string(&file).unwrap(), "new");
        assert_eq!(fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o640);
    }

    /// A link to a descriptor (/proc/self/fd/N, as /dev/stdout is) is
    /// written into the file the descriptor has open: resolved, it named
    /// that file, and the file was renamed over, the open one left empty.
    #[test]
    fn a_descriptor_link_is_written_in_place() {
        use std::io::{Read, Seek};
        use std::os::fd::AsRawFd;
        let dir = tempfile::tempdir().unwrap();
        let held = dir.path().join("held.txt");
        let mut file = fs::OpenOptions::new().read(true).write(true).create_new(true).open(&held).unwrap();
        let link = dir.path().join("out.cnf");
        std::os::unix::fs::symlink(format!("/proc/self/fd/{}", file.as_raw_fd()), &link).unwrap();
        for path in [&link, &PathBuf::from(format!("/dev/fd/{}", file.as_raw_fd()))] {
            write_file("--out", path, &Inputs::default(), |out| out.write_all(b"p cnf")).unwrap();
            let mut text = String::new();
            file.seek(io::SeekFrom::Start(0)).unwrap();
            file.read_to_string(&mut text).unwrap();
            assert_eq!(text, "p cnf", "{}", path.display());
            assert_eq!(fs::metadata(&held).unwrap().ino(), file.metadata().unwrap().ino());
            file.set_len(0).unwrap();
        }
        assert!(link.is_symlink());
        assert_eq!(names(dir.path()), ["held.txt", "out.cnf"]);
    }

    /// What is no file is written in place: /dev/null stays what it is.
    #[test]
    fn a_device_is_written_in_place() {
        write_file("--out", Path::new("/dev/null"), &Inputs::default(), |out| out.write_all(b"p cnf")).unwrap();
        assert!(!fs::metadata("/dev/null").unwrap().is_file());
    }
}
