//! `satdoku completions SHELL` and `satdoku man`: generated from the clap
//! tree itself, so they always list every command and option there is.

use std::io::{self, Write};

use anyhow::{Context, Result};
use clap::{Args, CommandFactory, ValueEnum};
use clap_complete::Shell as Generator;

use super::batch::STDOUT;

/// The shells completions are written for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
    Powershell,
    Elvish,
}

impl Shell {
    fn generator(self) -> Generator {
        match self {
            Shell::Bash => Generator::Bash,
            Shell::Zsh => Generator::Zsh,
            Shell::Fish => Generator::Fish,
            Shell::Powershell => Generator::PowerShell,
            Shell::Elvish => Generator::Elvish,
        }
    }
}

#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to complete in.
    #[arg(value_enum)]
    pub shell: Shell,
}

#[derive(Args, Debug)]
pub struct ManArgs {}

/// Write the completion script of `args.shell` for the command tree `C`.
pub fn run_completions<C: CommandFactory>(args: &CompletionsArgs) -> Result<u8> {
    let mut command = C::command();
    let mut out = Vec::new();
    clap_complete::generate(args.shell.generator(), &mut command, "satdoku", &mut out);
    io::stdout().lock().write_all(&out).context(STDOUT)?;
    Ok(0)
}

/// Write the man page (roff) of the command tree `C`: the main page, then one
/// section per subcommand, each with its options.
pub fn run_man<C: CommandFactory>(_: &ManArgs) -> Result<u8> {
    let command = C::command();
    let mut out = Vec::new();
    let man = clap_mangen::Man::new(command.clone());
    man.render_title(&mut out)?;
    man.render_name_section(&mut out)?;
    man.render_synopsis_section(&mut out)?;
    man.render_description_section(&mut out)?;
    man.render_options_section(&mut out)?;
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = sub.get_name();
        let sub = sub.clone().bin_name(format!("satdoku {name}"));
        writeln!(out, ".SH \"SATDOKU {}\"", name.to_uppercase())?;
        let page = clap_mangen::Man::new(sub);
        // Each subcommand's synopsis, description and options, as subsections of this page.
        let mut section = Vec::new();
        page.render_synopsis_section(&mut section)?;
        page.render_description_section(&mut section)?;
        page.render_options_section(&mut section)?;
        out.extend_from_slice(&demote(&section));
    }
    if let Some(after) = command.get_after_help() {
        // The exit codes and the input note, kept as written (no filling).
        writeln!(out, ".SH \"EXIT STATUS\"\n.nf")?;
        for line in after.to_string().lines() {
            writeln!(out, "{}", escape(line))?;
        }
        writeln!(out, ".fi")?;
    }
    man.render_version_section(&mut out)?;
    io::stdout().lock().write_all(ascii(&out).as_bytes()).context(STDOUT)?;
    Ok(0)
}

/// A subcommand's sections as subsections (`.SH` to `.SS`) of its own section.
fn demote(roff: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(roff);
    text.lines()
        .map(|line| match line.strip_prefix(".SH ") {
            Some(title) => format!(".SS {title}\n"),
            None => format!("{line}\n"),
        })
        .collect::<String>()
        .into_bytes()
}

/// A line of text as roff: a leading dot or quote would be a request, a backslash an escape.
fn escape(line: &str) -> String {
    let line = line.replace('\\', "\\e").replace('-', "\\-");
    if line.starts_with(['.', '\'']) {
        format!("\\&{line}")
    } else {
        line
    }
}

/// Roff in ASCII: every other character as a groff escape (`×` as `\[u00D7]`),
/// which any troff reads whatever its input encoding.
fn ascii(roff: &[u8]) -> String {
    let mut text = String::with_capacity(roff.len());
    for c in String::from_utf8_lossy(roff).chars() {
        if c.is_ascii() {
            text.push(c);
        } else {
            text.push_str(&format!("\\[u{:04X}]", c as u32));
        }
    }
    text
}
