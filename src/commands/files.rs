//! The files the commands write (`--out`, `--out-dir`, `--proof`,
//! `--proof-dir`): never one of the run's input files.

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::os::fd::AsFd;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

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
        Ok(OutDir { option, dir: dir.to_path_buf(), inputs: inputs.clone() })
    }

    /// The path of the file `name` in it.
    pub fn join(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// The file `name` in it refused when it is one of the input files:
    /// checked before the work of making it, as [`write_file`] checks again.
    pub fn refuse(&self, name: &str) -> Result<(), WriteError> {
        self.inputs.refuse(self.option, &self.join(name))
    }

    /// Write the file `name` in it: see [`write_file`].
    pub fn write(&self, name: &str, write: impl FnOnce(&mut Out) -> io::Result<()>) -> Result<(), WriteError> {
        write_file(self.option, &self.join(name), &self.inputs, write)
    }
}

/// Write the file at `path`, for `option`, with `write`: refused when it
/// is one of the `inputs`.
pub fn write_file(
    option: &str,
    path: &Path,
    inputs: &Inputs,
    write: impl FnOnce(&mut Out) -> io::Result<()>,
) -> Result<(), WriteError> {
    inputs.refuse(option, path)?;
    let failed = |error: io::Error| WriteError::Io { path: path.to_path_buf(), error };
    let file = File::create(path).map_err(failed)?;
    let mut out = BufWriter::with_capacity(1 << 16, &file);
    write(&mut out).and_then(|()| out.flush()).map_err(failed)
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
}
