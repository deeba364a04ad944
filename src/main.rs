//! The satdoku command line: arguments in, library calls, records out, exit code.

mod commands;

use std::io::Write;
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser, Subcommand};

use commands::GridArgs;

/// What every command's exit code means; the end of `--help` and of the man page.
const EXIT_CODES: &str = "\
Exit codes:
  0  every puzzle answered (solved, counted, analyzed)
  1  some puzzle has no solution
  2  bad input, a usage error, a timeout, or an internal error
  129, 130, 143  ended by SIGHUP, Ctrl-C or SIGTERM (the records answered so far printed)

Puzzles are read from the FILEs, or stdin when there is none or \"-\": a line of
n² symbols (. 0 or _ empty), n rows of n symbols, rows of numbers, .sdk, .ss,
CSV, f-puzzles JSON. Data goes to stdout, diagnostics and progress to stderr.";

/// Sudoku and its generalizations, solved by SAT: any size, boxes of R×C,
/// Latin squares, jigsaw regions, X and hyper variants.
#[derive(Parser, Debug)]
#[command(name = "satdoku", version, about, max_term_width = 100, after_help = EXIT_CODES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    grid: GridArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve every puzzle (stdin when no FILE or "-").
    #[command(after_help = EXIT_CODES)]
    Solve(commands::solve::SolveArgs),
    /// Count the solutions of every puzzle (--max N caps the count).
    #[command(after_help = EXIT_CODES)]
    Count(commands::count::CountArgs),
    /// Write the DIMACS CNF of a puzzle.
    #[command(after_help = EXIT_CODES)]
    Dimacs(commands::dimacs::DimacsArgs),
    /// Read an external SAT solver's answer back into a grid.
    #[command(after_help = EXIT_CODES)]
    Decode(commands::decode::DecodeArgs),
    /// The cells fixed in every solution, and the candidates of the rest.
    #[command(after_help = EXIT_CODES)]
    Analyze(commands::analyze::AnalyzeArgs),
    /// Why a puzzle has no solution (a minimal set of givens), or why a cell is forced.
    #[command(after_help = EXIT_CODES)]
    Explain(commands::explain::ExplainArgs),
    /// New puzzles or full grids: proper, minimal, symmetric, of any grid.
    #[command(after_help = EXIT_CODES)]
    Generate(commands::generate::GenerateArgs),
    /// Remove givens while the puzzle stays unique, until every given left is needed.
    #[command(after_help = EXIT_CODES)]
    Minimize(commands::minimize::MinimizeArgs),
    /// Print a shell completion script, e.g. `satdoku completions bash > ~/.local/share/bash-completion/completions/satdoku`.
    Completions(commands::shell::CompletionsArgs),
    /// Print the man page (roff), e.g. `satdoku man | man -l -`.
    Man(commands::shell::ManArgs),
}

impl Command {
    /// Whether the command writes its answers to stdout, rather than all of
    /// them to files (`dimacs --out-dir`, `solve --format svg --out-dir`).
    fn writes_stdout(&self) -> bool {
        let batch = match self {
            Command::Solve(args) => &args.batch,
            Command::Count(args) => &args.batch,
            Command::Analyze(args) => &args.batch,
            Command::Explain(args) => &args.batch,
            Command::Minimize(args) => &args.batch,
            Command::Dimacs(args) => return args.out.is_none() && args.out_dir.is_none(),
            Command::Decode(_) | Command::Generate(_) | Command::Completions(_) | Command::Man(_) => return true,
        };
        batch.out_dir.is_none()
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_exit(option_taken_as_value().or_else(|| another_commands_option(&e)).unwrap_or(e)),
    };
    // The grid options are every command's, as clap's `global` puts them,
    // but `completions` and `man` read no puzzles: given there, a mistake.
    let reads_none = match cli.command {
        Command::Completions(_) => Some("completions"),
        Command::Man(_) => Some("man"),
        _ => None,
    };
    if let (Some(name), Some(option)) = (reads_none, cli.grid.first_given()) {
        let command = Cli::command().find_subcommand(name).cloned().expect("a subcommand of the Cli");
        let message = format!("{option} is a grid option, for the commands that read puzzles; `{name}` reads none");
        return usage_exit(command.bin_name(format!("satdoku {name}")).error(ErrorKind::ArgumentConflict, message));
    }
    if let (Some(why), true) = (commands::streams::stdout_unusable(), cli.command.writes_stdout()) {
        return unusable_stdout(why);
    }
    // Ctrl-C, SIGTERM and SIGHUP: external solvers ended, their files
    // removed, the output files being written removed (none is left
    // half-written under its name), and the records answered so far
    // printed, whole, before the exit (128 + the signal).
    let last = || {
        commands::files::remove_partial_on_signal();
        commands::output::flush_on_signal();
    };
    if let Err(e) = satdoku::clean_up_on_signals_then(last) {
        let _ = writeln!(std::io::stderr(), "satdoku: cannot set up signal handling: {e}");
        return ExitCode::from(2);
    }
    let result = match &cli.command {
        Command::Solve(args) => commands::solve::run_solve(args, &cli.grid),
        Command::Count(args) => commands::count::run_count(args, &cli.grid),
        Command::Dimacs(args) => commands::dimacs::run_dimacs(args, &cli.grid),
        Command::Decode(args) => commands::decode::run_decode(args, &cli.grid),
        Command::Analyze(args) => commands::analyze::run_analyze(args, &cli.grid),
        Command::Explain(args) => commands::explain::run_explain(args, &cli.grid),
        Command::Generate(args) => commands::generate::run_generate(args, &cli.grid),
        Command::Minimize(args) => commands::minimize::run_minimize(args, &cli.grid),
        Command::Completions(args) => commands::shell::run_completions::<Cli>(args),
        Command::Man(args) => commands::shell::run_man::<Cli>(args),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) if commands::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            // A closed stderr has nowhere to say so; the exit code still does.
            let _ = writeln!(std::io::stderr(), "satdoku: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// An option given where a value goes (`generate --timeout --jobs 2`):
/// `--timeout` takes values that start with a hyphen (so that `-1` is
/// named as not a number of seconds), so it took `--jobs` as its value and
/// clap said "unexpected argument '2'".
fn option_taken_as_value() -> Option<clap::Error> {
    let cli = Cli::command();
    let (args, at) = typed_command(&cli)?;
    let command = cli.find_subcommand(&args[at])?;
    // The grid options are the top command's, `global` to every command.
    let option_named = |word: &str| command.get_arguments().chain(cli.get_arguments()).find(|a| names(a, word));
    let typed = &args[at + 1..];
    let typed = &typed[..typed.iter().position(|a| a == "--").unwrap_or(typed.len())];
    typed.windows(2).find_map(|pair| {
        option_named(&pair[0]).filter(|a| a.is_allow_hyphen_values_set())?;
        let option = pair[1].split('=').next().unwrap_or(&pair[1]);
        option_named(option)?;
        let taker = &pair[0];
        let message = format!("{taker} needs a value, and {option}, given after it, is an option, not its value");
        let name = command.get_name();
        Some(command.clone().bin_name(format!("satdoku {name}")).error(ErrorKind::InvalidValue, message))
    })
}

/// The arguments as typed, and where the first that names a command is.
fn typed_command(cli: &clap::Command) -> Option<(Vec<String>, usize)> {
    let args: Vec<String> = std::env::args_os().skip(1).map(|a| a.to_string_lossy().into_owned()).collect();
    let at = args.iter().position(|a| cli.find_subcommand(a).is_some())?;
    Some((args, at))
}

/// Whether `word` (`--jobs`, `-j`) is one of `arg`'s names.
fn names(arg: &clap::Arg, word: &str) -> bool {
    let long = arg.get_long().is_some_and(|l| word.strip_prefix("--") == Some(l));
    let short = arg.get_short().is_some_and(|s| word.strip_prefix('-') == Some(s.encode_utf8(&mut [0; 4])));
    long || short
}

/// An unknown option that other commands take (`dimacs --jobs 2`), said
/// so with the commands that take it: clap said "unexpected argument" with
/// a tip to pass it as a file name (`-- --jobs`).
fn another_commands_option(e: &clap::Error) -> Option<clap::Error> {
    use clap::error::{ContextKind, ContextValue};
    if e.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    let Some(ContextValue::String(arg)) = e.get(ContextKind::InvalidArg) else { return None };
    // clap's "a similar argument exists" (`--out` for `--out-dir`) stays.
    if e.get(ContextKind::SuggestedArg).is_some() {
        return None;
    }
    let option = arg.split('=').next().unwrap_or(arg);
    let cli = Cli::command();
    // The command as typed: the first argument that is a command's name.
    let (args, at) = typed_command(&cli)?;
    let command = cli.find_subcommand(&args[at])?;
    let takes = |c: &clap::Command| c.get_arguments().any(|a| names(a, option));
    // Given before the command's name (`satdoku --jobs 2 solve`), an option
    // of that command is clap's to name.
    if takes(command) {
        return None;
    }
    let others: Vec<&str> = cli.get_subcommands().filter(|c| takes(c)).map(|c| c.get_name()).collect();
    let (last, rest) = others.split_last()?;
    let those = match rest {
        [] => format!("`{last}`"),
        _ => format!("{} and `{last}`", rest.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ")),
    };
    let name = command.get_name();
    let message =
        format!("{option} is an option of {those}, not of `{name}`: `satdoku {name} --help` lists its options");
    Some(command.clone().bin_name(format!("satdoku {name}")).error(ErrorKind::UnknownArgument, message))
}

/// What `Cli::parse` does with help, the version and usage errors (print,
/// exit 0 or 2), except that a write that fails is an error (exit 2): help
/// into a full disk said nothing and exited 0. A closed pipe stays quiet.
fn usage_exit(e: clap::Error) -> ExitCode {
    // Help and the version go to stdout.
    if let (Some(why), false) = (commands::streams::stdout_unusable(), e.use_stderr()) {
        return unusable_stdout(why);
    }
    let code = u8::try_from(e.exit_code()).unwrap_or(2);
    let written = e.print().and_then(|()| std::io::stdout().flush()).and_then(|()| std::io::stderr().flush());
    match written {
        Ok(()) => ExitCode::from(code),
        Err(w) if w.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::from(code),
        Err(w) => {
            let _ = writeln!(std::io::stderr(), "satdoku: cannot write: {w}");
            ExitCode::from(2)
        }
    }
}

/// Exit 2, saying that stdout is `why` ([`commands::streams::stdout_unusable`]).
fn unusable_stdout(why: &str) -> ExitCode {
    let _ = writeln!(
        std::io::stderr(),
        "satdoku: stdout is {why}: the output would be lost (to throw it away, send it to /dev/null)"
    );
    ExitCode::from(2)
}
