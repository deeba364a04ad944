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
use std::os::unix::fs::PermissionsExt;
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

impl ExternalSolver {
    /// Read a command line such as `cadical -q` or `minisat -verb=0 {cnf} {result}`.
    pub fn parse(command: &str) -> Result<ExternalSolver, ExternalError> {
        let error = |message: &str| ExternalError::Command { command: command.into(), message: message.into() };
        let mut words = shell_words::split(command).map_err(|e| error(&format!("{e} (expected CMD [ARGS])")))?;
        if words.is_empty() {
            return Err(error("no command (expected CMD [ARGS], e.g. \"cadical -q\")"));
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
                None => "killed by a signal".to_string(),
            };
            let detail =
                last_line(&stderr_path).or_else(|| last_line(&stdout_path)).map_or(String::new(), |l| format!(": {l}"));
            return Err(ExternalError::Failed { program: self.program.clone(), how, detail });
        }
        let (path, name) = if self.uses_result_file() {
            (&result_path, format!("{} result file", self.program))
        } else {
            (&stdout_path, format!("{} output", self.program))
        };
        let output = |error| ExternalError::Output { program: self.program.clone(), error };
        let file = File::open(path)
            .map_err(|e| output(ModelError::Io { source_name: name.clone(), message: e.to_string() }))?;
        let answer = read_model(BufReader::new(file), &name, var_count).map_err(output)?;
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

/// The last nonblank line of a file, shortened, for error messages.
fn last_line(path: &Path) -> Option<String> {
    let mut text = String::new();
    File::open(path).ok()?.take(1 << 20).read_to_string(&mut text).ok()?;
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
        let Ok(file) = File::open(proof) else { return Ok(false) };
        let clauses: Vec<Vec<i32>> =
            cnf.formula.iter().map(|c| c.iter().map(|l| l.to_dimacs() as i32).collect()).collect();
        match check_drat_until(&clauses, BufReader::new(file), deadline) {
            Ok(_) => Ok(true),
            Err(DratError::TimedOut) => Ok(false),
            Err(error) => Err(SolveError::ProofRejected {
                claimant: Claimant::Program(self.solver.program.clone()),
                error: error.to_string(),
            }),
        }
    }
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

    #[test]
    fn bad_commands_are_refused() {
        assert!(ExternalSolver::parse("  ").is_err());
        assert!(ExternalSolver::parse("cadical 'unclosed").is_err());
    }
}
