//! Running an external SAT solver (CaDiCaL, Kissat, MiniSat, PicoSAT, …) on a puzzle's CNF.
//!
//! The command is split like a shell would (quotes, no expansion). In its
//! arguments `{cnf}` stands for the CNF file, appended when absent, and
//! `{result}` for a file the solver writes its answer to. MiniSat prints no
//! model on stdout but writes it to its second argument: for a program whose
//! name starts with `minisat`, `{cnf} {result}` are added when not written.
//! Otherwise the answer is read from stdout in SAT-competition form. Exit
//! codes 10 (satisfiable) and 20 (unsatisfiable) are the convention; 0 is
//! accepted when the output says which; anything else is a failure.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use thiserror::Error;

use crate::cnf::dimacs::write_cnf;
use crate::error::InternalError;
use crate::pipeline::Prepared;
use crate::pipeline::PuzzleCnf;
use crate::proof::drat::{check_drat_until, DratError};
use crate::reasoning::pattern::ValueGroups;
use crate::sat::cleanup::{Group, TempDir};
use crate::sat::output::{check_model, read_model, Answer, ModelError};
use crate::sat::{Backend, Claimant, Limits, SatResult};
use crate::solve::{SolveError, Stats};

/// An external solver command, ready to run on CNF files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalSolver {
    program: String,
    args: Vec<String>,
}

/// Why an external solver gave no usable answer.
#[derive(Debug, Error)]
///
/// `program` is the solver as named in `--solver`.
#[allow(missing_docs)] // the fields, named in each variant's message
pub enum ExternalError {
    /// A command line that cannot be split into words.
    #[error("--solver '{command}': {message}")]
    Command { command: String, message: String },
    /// No such program on `PATH`.
    #[error("cannot run '{program}': command not found (is it installed and on PATH?)")]
    NotFound { program: String },
    /// A path to a program that is not there.
    #[error("cannot run '{program}': no such file")]
    NoSuchFile { program: String },
    /// A file that is not an executable program.
    #[error("cannot run '{program}': not an executable file (expected a program with execute permission)")]
    NotExecutable { program: String },
    /// The program cannot be started.
    #[error("cannot run '{program}': {message}")]
    Spawn { program: String, message: String },
    /// An exit code that is no answer, or a signal.
    #[error("`{program}` failed: {how}{detail}")]
    Failed { program: String, how: String, detail: String },
    /// The exit code says one thing and the output another.
    #[error("`{program}` exited with {code} ({said}) but its output says {output}")]
    Inconsistent { program: String, code: i32, said: &'static str, output: &'static str },
    /// Something other than a regular file where the answer is read: a FIFO
    /// (whose opening would wait for a writer for ever), a device such as
    /// `/dev/zero` (which never ends), a folder, a socket.
    #[error("`{program}` left {kind} where its {file} should be, not a regular file: it is not read")]
    NotAFile { program: String, file: String, kind: &'static str },
    /// Output that is no answer.
    #[error("unreadable answer from `{program}`: {error}")]
    Output { program: String, error: ModelError },
    /// A model that breaks the CNF.
    #[error("`{program}` gave a wrong model: {error}")]
    WrongModel { program: String, error: ModelError },
    /// The temporary files cannot be written or read, or the solver waited for.
    #[error("temporary CNF file: {0}")]
    Io(String),
    /// A bug in satdoku.
    #[error(transparent)]
    Internal(#[from] InternalError),
}

/// The placeholders [`ExternalSolver::parse`] fills in.
const PLACEHOLDERS: [&str; 3] = ["cnf", "result", "proof"];

/// The names in braces in `word` that look like placeholders: letters,
/// digits and `_`, at least one letter (`{cnf}`, `{unknown}`, not `{1,2}`).
fn placeholders(word: &str) -> impl Iterator<Item = &str> {
    word.split('{').skip(1).filter_map(|rest| rest.split_once('}')).map(|(name, _)| name).filter(|name| {
        name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') && name.chars().any(|c| c.is_ascii_alphabetic())
    })
}

impl ExternalSolver {
    /// Read a command line such as `cadical -q` or `minisat -verb=0 {cnf} {result}`.
    pub fn parse(command: &str) -> Result<ExternalSolver, ExternalError> {
        let error = |message: &str| ExternalError::Command { command: command.into(), message: message.into() };
        let mut words = shell_words::split(command).map_err(|e| error(&format!("{e} (expected CMD [ARGS])")))?;
        if words.is_empty() {
            return Err(error("no command (expected CMD [ARGS], e.g. \"cadical -q\")"));
        }
        // `{cnf}`, `{result}` and `{proof}` are filled in; another name in
        // braces is a mistyped one, passed on as it is, it would reach the
        // solver as a file name.
        let unknown = words.iter().flat_map(|word| placeholders(word)).find(|p| !PLACEHOLDERS.contains(p));
        if let Some(name) = unknown {
            let message = format!("no placeholder {{{name}}} (expected {{cnf}}, {{result}} or {{proof}})");
            return Err(error(&message));
        }
        let program = words.remove(0);
        Ok(ExternalSolver { program, args: words })
    }

    /// The program, as named.
    pub fn program(&self) -> &str {
        &self.program
    }

    /// Whether the answer comes in a result file rather than on stdout.
    fn uses_result_file(&self) -> bool {
        self.args.iter().any(|a| a.contains("{result}")) || self.is_minisat()
    }

    /// Whether the program writes DRAT proofs where told (CaDiCaL and
    /// Kissat: `PROGRAM [OPTIONS] CNF PROOF`, `--no-binary` for text).
    pub fn gives_proofs(&self) -> bool {
        let name = Path::new(&self.program).file_name().and_then(|n| n.to_str()).unwrap_or("");
        name.starts_with("cadical") || name.starts_with("kissat") || self.args.iter().any(|a| a.contains("{proof}"))
    }

    fn is_minisat(&self) -> bool {
        let name = Path::new(&self.program).file_name().and_then(|n| n.to_str()).unwrap_or("");
        name.starts_with("minisat")
    }

    /// The arguments of one run, placeholders filled in.
    fn arguments(&self, cnf: &Path, result: &Path, proof: Option<&Path>) -> Vec<String> {
        let mut args = self.args.clone();
        if proof.is_some() && !args.iter().any(|a| a.contains("{proof}")) {
            args.push("--no-binary".into());
        }
        if !args.iter().any(|a| a.contains("{cnf}")) {
            args.push("{cnf}".into());
        }
        if self.is_minisat() && !args.iter().any(|a| a.contains("{result}")) {
            args.push("{result}".into());
        }
        if proof.is_some() && !args.iter().any(|a| a.contains("{proof}")) {
            args.push("{proof}".into());
        }
        let (cnf, result) = (cnf.to_string_lossy(), result.to_string_lossy());
        let proof = proof.map_or("".into(), |p| p.to_string_lossy());
        args.iter().map(|a| a.replace("{cnf}", &cnf).replace("{result}", &result).replace("{proof}", &proof)).collect()
    }

    /// Where the program is: the file `PATH` gives for a bare name, or the
    /// path as given. Checked once, before any puzzle is read, so that a
    /// missing solver is one error rather than one per puzzle.
    pub fn locate(&self) -> Result<PathBuf, ExternalError> {
        let program = Path::new(&self.program);
        if self.program.contains('/') {
            return match std::fs::metadata(program) {
                Ok(meta) if is_executable(&meta) => Ok(program.to_path_buf()),
                Ok(_) => Err(ExternalError::NotExecutable { program: self.program.clone() }),
                Err(_) => Err(ExternalError::NoSuchFile { program: self.program.clone() }),
            };
        }
        // As execvp(3) searches: an empty entry is the current folder, no PATH is /bin:/usr/bin.
        let path = std::env::var_os("PATH").unwrap_or_else(|| "/bin:/usr/bin".into());
        let mut found_but_not_executable = None;
        for dir in std::env::split_paths(&path) {
            let dir = if dir.as_os_str().is_empty() { PathBuf::from(".") } else { dir };
            let candidate = dir.join(program);
            match std::fs::metadata(&candidate) {
                Ok(meta) if is_executable(&meta) => return Ok(candidate),
                Ok(meta) if meta.is_file() => found_but_not_executable = found_but_not_executable.or(Some(candidate)),
                _ => {}
            }
        }
        match found_but_not_executable {
            Some(path) => Err(ExternalError::NotExecutable { program: path.display().to_string() }),
            None => Err(ExternalError::NotFound { program: self.program.clone() }),
        }
    }

    /// Run the solver on the CNF file `cnf` of `var_count` variables until
    /// `deadline`: its answer, or `None` when it was stopped there. The
    /// solver runs in a process group of its own, and the whole group is
    /// ended at the deadline.
    ///
    /// An [`Answer::Unsatisfiable`] is the program's claim: check it before
    /// believing it (`satdoku::solve_with_stats` and `CnfFile::confirm_unsat` do).
    pub fn run(
        &self,
        cnf: &Path,
        var_count: usize,
        deadline: Option<Instant>,
    ) -> Result<Option<Answer>, ExternalError> {
        let dir = TempDir::new().map_err(io_error)?;
        self.run_in(&dir, cnf, var_count, None, deadline)
    }

    /// [`ExternalSolver::run`], the solver's output files in `dir`, and its
    /// DRAT proof in `proof` when one is asked for.
    fn run_in(
        &self,
        dir: &TempDir,
        cnf: &Path,
        var_count: usize,
        proof: Option<&Path>,
        deadline: Option<Instant>,
    ) -> Result<Option<Answer>, ExternalError> {
        let (result_path, stdout_path, stderr_path) =
            (dir.path().join("result"), dir.path().join("stdout"), dir.path().join("stderr"));
        // Output goes to files, so a chatty solver never blocks on a full pipe.
        let mut command = Command::new(&self.program);
        command
            .args(self.arguments(cnf, &result_path, proof))
            .stdin(Stdio::null())
            .stdout(File::create(&stdout_path).map_err(io_error)?)
            .stderr(File::create(&stderr_path).map_err(io_error)?);
        let mut solver = Group::spawn(&mut command).map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => ExternalError::NotFound { program: self.program.clone() },
            _ => ExternalError::Spawn { program: self.program.clone(), message: e.to_string() },
        })?;
        let Some(status) = solver.wait(deadline).map_err(io_error)? else {
            return Ok(None);
        };
        let code = status.code();
        if !matches!(code, Some(0 | 10 | 20)) {
            let how = match code {
                Some(c) => format!("exit code {c} (expected 10 for satisfiable, 20 for unsatisfiable)"),
                None => killed_by(&status),
            };
            let detail = last_line(&stderr_path, deadline)
                .or_else(|| last_line(&stdout_path, deadline))
                .map_or(String::new(), |l| format!(": {l}"));
            return Err(ExternalError::Failed { program: self.program.clone(), how, detail });
        }
        // The file, what it is to the solver, and its name in messages.
        let (path, role, name) = if self.uses_result_file() {
            (&result_path, "result file", format!("{} result file", self.program))
        } else {
            (&stdout_path, "stdout file", format!("{} output", self.program))
        };
        let output = |error| ExternalError::Output { program: self.program.clone(), error };
        let file = open_left(path, deadline).map_err(|e| match e {
            Left::NotAFile(kind) => ExternalError::NotAFile { program: self.program.clone(), file: role.into(), kind },
            Left::Io(e) => output(ModelError::Io { source_name: name.clone(), message: e.to_string() }),
        })?;
        let answer = read_model(file, &name, var_count).map_err(output)?;
        let said = match code {
            Some(10) => Some(true),
            Some(20) => Some(false),
            _ => None,
        };
        let found = matches!(answer, Answer::Satisfiable(_));
        if let (Some(code), Some(said)) = (code, said) {
            if said != found {
                let word = |sat: bool| if sat { "satisfiable" } else { "unsatisfiable" };
                return Err(ExternalError::Inconsistent {
                    program: self.program.clone(),
                    code,
                    said: word(said),
                    output: word(found),
                });
            }
        }
        Ok(Some(answer))
    }
}

fn io_error(e: io::Error) -> ExternalError {
    ExternalError::Io(e.to_string())
}

/// A regular file that someone may execute.
fn is_executable(meta: &std::fs::Metadata) -> bool {
    meta.is_file() && meta.permissions().mode() & 0o111 != 0
}

/// Why a file the solver left is not read.
enum Left {
    NotAFile(&'static str),
    Io(io::Error),
}

/// Open what the solver left at `path` (its result file, its proof, or
/// satdoku's own file of its stdout, which it may have replaced), never
/// waiting on it: only a regular file is read. Opening a FIFO waits for a
/// writer, for ever when there is none, and a device such as `/dev/zero`
/// never ends. The file is read up to the size it had when opened, which
/// what the solver left running cannot make grow, and no further than
/// `deadline`.
fn open_left(path: &Path, deadline: Option<Instant>) -> Result<BufReader<Until<io::Take<File>>>, Left> {
    // Looked at before it is opened, so that no device is ever opened, and
    // after, since what the solver left running may have swapped it between.
    let meta = std::fs::metadata(path).map_err(Left::Io)?;
    not_a_file(&meta).map_or(Ok(()), |kind| Err(Left::NotAFile(kind)))?;
    // O_NONBLOCK: a FIFO put there since opens at once (and is refused
    // below); a regular file's reads ignore it.
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .map_err(Left::Io)?;
    let meta = file.metadata().map_err(Left::Io)?;
    not_a_file(&meta).map_or(Ok(()), |kind| Err(Left::NotAFile(kind)))?;
    Ok(BufReader::new(Until { inner: file.take(meta.len()), deadline }))
}

/// What a file that is not a regular file is, in words; `None` for a regular file.
fn not_a_file(meta: &std::fs::Metadata) -> Option<&'static str> {
    let kind = meta.file_type();
    let kinds = [
        (kind.is_fifo(), "a FIFO"),
        (kind.is_char_device(), "a character device"),
        (kind.is_block_device(), "a block device"),
        (kind.is_socket(), "a socket"),
        (kind.is_dir(), "a folder"),
    ];
    match kind.is_file() {
        true => None,
        false => Some(kinds.into_iter().find(|&(is, _)| is).map_or("something else", |(_, name)| name)),
    }
}

/// A reader that fails once `deadline` has passed, so that reading what a
/// solver left ends with `--timeout` as the solver does.
struct Until<R> {
    inner: R,
    deadline: Option<Instant>,
}

impl<R: Read> Read for Until<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(io::Error::new(io::ErrorKind::TimedOut, "the time limit passed while reading it"));
        }
        self.inner.read(buf)
    }
}

/// The last nonblank line of a file the solver left, shortened, for error messages.
fn last_line(path: &Path, deadline: Option<Instant>) -> Option<String> {
    let mut text = String::new();
    open_left(path, deadline).ok()?.take(1 << 20).read_to_string(&mut text).ok()?;
    let line = text.lines().rev().map(str::trim).find(|l| !l.is_empty())?;
    Some(line.chars().take(200).collect())
}

/// An external solver as a [`Backend`]: each search writes the CNF to a
/// temporary file, runs the program on it until the deadline, and checks its
/// model against the CNF before decoding and verifying it. Its
/// "unsatisfiable" is a claim: a program that writes DRAT proofs (CaDiCaL,
/// Kissat) is asked for one, which satdoku's own checker must accept
/// ([`crate::proof::check_drat`]); any other claim is confirmed by varisat
/// ([`crate::sat::confirm_unsat`]). It has no conflict budget: a search under
/// a pattern guess ends when the program does, or at the deadline.
pub(crate) struct External<'s> {
    pub solver: &'s ExternalSolver,
    /// Whether the last "unsatisfiable" came with a proof that was checked.
    pub proved: bool,
}

impl Backend for External<'_> {
    fn search(
        &mut self,
        prepared: &Prepared,
        guesses: &[ValueGroups],
        limits: Limits,
        stats: &mut Stats,
    ) -> Result<SatResult, SolveError> {
        let start = Instant::now();
        prepared.check_size_until(limits.deadline)?;
        let Some(cnf) = prepared.cnf_until(guesses, limits.deadline) else { return Err(SolveError::TimedOut) };
        stats.variables += cnf.formula.var_count();
        stats.clauses += cnf.formula.len();
        // One folder holds the CNF and the solver's output, removed even when a signal ends satdoku.
        let dir = TempDir::new().map_err(io_error)?;
        let path = dir.path().join("puzzle.cnf");
        {
            let mut out = BufWriter::new(File::create(&path).map_err(io_error)?);
            write_cnf(&mut out, &cnf).map_err(io_error)?;
            out.flush().map_err(io_error)?;
        }
        stats.encode += start.elapsed();
        let start = Instant::now();
        let proof = self.solver.gives_proofs().then(|| dir.path().join("proof.drat"));
        self.proved = false;
        let answer = self.solver.run_in(&dir, &path, cnf.formula.var_count(), proof.as_deref(), limits.deadline);
        stats.solve += start.elapsed();
        let model = match answer? {
            None => return Ok(SatResult::Interrupted),
            Some(Answer::Unsatisfiable) => {
                if let Some(proof) = &proof {
                    self.proved = self.check_proof(&cnf, proof, limits.deadline)?;
                }
                return Ok(SatResult::Unsat);
            }
            Some(Answer::Satisfiable(model)) => model,
        };
        let program = &self.solver.program;
        check_model(&cnf.formula, &model, &format!("{program} model"))
            .map_err(|error| ExternalError::WrongModel { program: program.clone(), error })?;
        Ok(SatResult::Sat(prepared.decode(&cnf.map, &model)?))
    }

    fn claimant(&self) -> Option<&str> {
        Some(&self.solver.program)
    }

    fn proved_unsat(&self) -> bool {
        self.proved
    }
}

impl External<'_> {
    /// Check the DRAT proof the program wrote for `cnf`: true when it is
    /// accepted, false when there is none or time ran out checking it (varisat
    /// confirms the claim then), an error when it is rejected.
    fn check_proof(&self, cnf: &PuzzleCnf, proof: &Path, deadline: Option<Instant>) -> Result<bool, SolveError> {
        let rejected = |error: String| SolveError::ProofRejected {
            claimant: Claimant::Program(self.solver.program.clone()),
            error,
        };
        let file = match open_left(proof, deadline) {
            Ok(file) => file,
            Err(Left::NotAFile(kind)) => return Err(rejected(format!("the proof is {kind}, not a regular file"))),
            Err(Left::Io(_)) => return Ok(false),
        };
        let clauses: Vec<Vec<i32>> =
            cnf.formula.iter().map(|c| c.iter().map(|l| l.to_dimacs() as i32).collect()).collect();
        match check_drat_until(&clauses, file, deadline) {
            Ok(_) => Ok(true),
            Err(DratError::TimedOut) => Ok(false),
            // Reading stopped at the deadline: as unchecked as a check cut short.
            Err(DratError::Read(_)) if deadline.is_some_and(|d| Instant::now() >= d) => Ok(false),
            Err(error) => Err(rejected(error.to_string())),
        }
    }
}

/// How a process that ended on a signal ended, in words: `killed by signal
/// 11 (SIGSEGV)`.
#[cfg_attr(not(unix), allow(unused_variables))]
fn killed_by(status: &std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            let name = match signal {
                libc::SIGSEGV => " (SIGSEGV)",
                libc::SIGABRT => " (SIGABRT)",
                libc::SIGKILL => " (SIGKILL)",
                libc::SIGTERM => " (SIGTERM)",
                libc::SIGINT => " (SIGINT)",
                libc::SIGBUS => " (SIGBUS)",
                libc::SIGFPE => " (SIGFPE)",
                libc::SIGILL => " (SIGILL)",
                libc::SIGXCPU => " (SIGXCPU: its CPU time limit)",
                _ => "",
            };
            return format!("killed by signal {signal}{name}");
        }
    }
    "killed by a signal".to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_filled_and_minisat_gets_a_result_file() {
        let (cnf, result) = (Path::new("/t/a.cnf"), Path::new("/t/r"));
        let cadical = ExternalSolver::parse("cadical -q").unwrap();
        assert_eq!(cadical.arguments(cnf, result, None), ["-q", "/t/a.cnf"]);
        assert!(!cadical.uses_result_file());
        let minisat = ExternalSolver::parse("/usr/bin/minisat -verb=0").unwrap();
        assert_eq!(minisat.arguments(cnf, result, None), ["-verb=0", "/t/a.cnf", "/t/r"]);
        assert!(!minisat.gives_proofs());
        let custom = ExternalSolver::parse("'my solver' --in={cnf} --out {result}").unwrap();
        assert_eq!(custom.program(), "my solver");
        assert_eq!(custom.arguments(cnf, result, None), ["--in=/t/a.cnf", "--out", "/t/r"]);
        assert!(custom.uses_result_file());
    }

    #[test]
    fn cadical_and_kissat_are_asked_for_text_drat_after_the_cnf() {
        let (cnf, result, proof) = (Path::new("/t/a.cnf"), Path::new("/t/r"), Path::new("/t/p.drat"));
        let cadical = ExternalSolver::parse("cadical -q").unwrap();
        assert!(cadical.gives_proofs());
        assert_eq!(cadical.arguments(cnf, result, Some(proof)), ["-q", "--no-binary", "/t/a.cnf", "/t/p.drat"]);
        let kissat = ExternalSolver::parse("/opt/bin/kissat").unwrap();
        assert!(kissat.gives_proofs());
        let custom = ExternalSolver::parse("prover {cnf} --drat={proof}").unwrap();
        assert!(custom.gives_proofs());
        assert_eq!(custom.arguments(cnf, result, Some(proof)), ["/t/a.cnf", "--drat=/t/p.drat"]);
    }

    #[test]
    fn programs_are_located_before_they_run() {
        let sh = ExternalSolver::parse("sh -c 'exit 20'").unwrap().locate().unwrap();
        assert!(sh.ends_with("sh") && sh.is_absolute(), "{}", sh.display());
        let locate = |command: &str| ExternalSolver::parse(command).unwrap().locate().unwrap_err();
        assert!(matches!(locate("no-such-sat-solver"), ExternalError::NotFound { .. }));
        assert!(matches!(locate("./no-such-sat-solver"), ExternalError::NoSuchFile { .. }));
        assert!(matches!(locate("/"), ExternalError::NotExecutable { .. }));
        let file = tempfile::NamedTempFile::new().unwrap(); // mode 0600
        assert!(matches!(locate(&file.path().display().to_string()), ExternalError::NotExecutable { .. }));
    }

    /// What the solver leaves is read as it was when opened: what it left
    /// running may append to it, but not make the reading longer.
    #[test]
    fn a_file_left_is_read_to_its_size_when_opened() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("result");
        std::fs::write(&path, "SAT\n1 0\n").unwrap();
        let mut file = open_left(&path, None).unwrap_or_else(|_| panic!("not opened"));
        std::fs::OpenOptions::new().append(true).open(&path).unwrap().write_all(b"c more\n").unwrap();
        let mut text = String::new();
        file.read_to_string(&mut text).unwrap();
        assert_eq!(text, "SAT\n1 0\n");
    }

    #[test]
    fn reading_stops_at_the_deadline() {
        let mut past = Until { inner: io::repeat(0), deadline: Some(Instant::now()) };
        assert_eq!(past.read(&mut [0; 8]).unwrap_err().kind(), io::ErrorKind::TimedOut);
        let mut open = Until { inner: io::repeat(0), deadline: None };
        assert_eq!(open.read(&mut [1; 8]).unwrap(), 8);
    }

    #[test]
    fn bad_commands_are_refused() {
        assert!(ExternalSolver::parse("  ").is_err());
        assert!(ExternalSolver::parse("cadical 'unclosed").is_err());
    }
}
