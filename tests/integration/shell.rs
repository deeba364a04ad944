//! `satdoku completions` and `satdoku man`: the scripts load in their shell
//! and complete what `--help` lists, the man page holds every command and
//! option and renders, and `--help` itself names the exit codes.

use std::process::Command;

use crate::util::run;

/// The subcommands `satdoku --help` lists (without `help`).
fn subcommands() -> Vec<String> {
    let help = run(&["--help"], "").stdout;
    let list = help.split("Commands:").nth(1).expect("a Commands: section");
    list.lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(String::from)
        .collect()
}

/// The long options a `--help` text lists, such as `--format`: the lines
/// that start with an option (`  -j, --jobs <N>`, `      --format <FORMAT>`),
/// not options named in the prose of a description.
fn long_options(help: &str) -> Vec<String> {
    help.lines()
        .filter(|l| l.trim_start().starts_with('-'))
        .filter_map(|l| l.split_whitespace().find(|w| w.starts_with("--")))
        .map(|w| w.trim_end_matches(',').split(['=', '<', '[']).next().unwrap_or(w).to_string())
        .filter(|w| w.len() > 2)
        .collect()
}

fn has(program: &str) -> bool {
    Command::new("sh").args(["-c", &format!("command -v {program}")]).output().is_ok_and(|o| o.status.success())
}

#[test]
fn help_stands_alone_with_the_exit_codes() {
    for args in [vec!["--help"], vec!["solve", "--help"], vec!["analyze", "--help"], vec!["count", "--help"]] {
        let r = run(&args, "");
        assert_eq!(r.code, 0);
        for code in ["0  every puzzle answered", "1  some puzzle has no solution", "2  bad input"] {
            assert!(r.stdout.contains(code), "{args:?} --help lacks {code:?}:\n{}", r.stdout);
        }
        assert!(!r.stdout.contains("README"), "{args:?}: --help sends the reader to the README");
    }
    assert!(subcommands().len() >= 5, "{:?}", subcommands());
}

#[test]
fn the_man_page_has_every_command_and_option() {
    let r = run(&["man"], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let page = r.stdout;
    assert!(page.starts_with(".ie") || page.starts_with(".TH"), "not roff: {}", &page[..80.min(page.len())]);
    assert!(page.contains(".SH \"EXIT STATUS\""));
    let mut checked = 0;
    for sub in subcommands() {
        assert!(page.contains(&format!(".SH \"SATDOKU {}\"", sub.to_uppercase())), "no section for {sub}");
        for option in long_options(&run(&[&sub, "--help"], "").stdout) {
            // roff writes a dash of an option as \-.
            let roff = option.replace('-', "\\-");
            assert!(page.contains(&roff) || page.contains(&option), "{sub} {option} missing from the man page");
            checked += 1;
        }
    }
    assert!(checked > 20, "only {checked} options found in the --help texts");
    if !crate::util::available("groff") {
        eprintln!("skipped: rendering the man page needs groff (Debian package groff-base)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("satdoku.1");
    std::fs::write(&path, &page).unwrap();
    let out = Command::new("groff").args(["-man", "-Tutf8", "-ww", "-z"]).arg(&path).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "groff warns: {}", String::from_utf8_lossy(&out.stderr));
    let text = Command::new("groff").args(["-man", "-Tutf8", "-P-cbou"]).arg(&path).output().unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("EXIT STATUS") && text.contains("SATDOKU ANALYZE"), "{text}");
}

#[test]
fn bash_completes_commands_and_options() {
    let r = run(&["completions", "bash"], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("satdoku.bash");
    std::fs::write(&script, &r.stdout).unwrap();
    // What bash offers after `satdoku <TAB>` and `satdoku solve --f<TAB>`.
    let complete = |words: &str, current: usize| {
        let program = format!(
            "source {}; COMP_WORDS=({words}); COMP_CWORD={current}; COMP_LINE='{words}'; COMP_POINT=${{#COMP_LINE}}; \
             _satdoku satdoku \"${{COMP_WORDS[$COMP_CWORD]}}\" \"${{COMP_WORDS[$COMP_CWORD-1]}}\"; \
             printf '%s\\n' \"${{COMPREPLY[@]}}\"",
            script.display()
        );
        let out = Command::new("bash").args(["-c", &program]).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap().lines().map(String::from).collect::<Vec<_>>()
    };
    let commands = complete("satdoku ''", 1);
    for sub in subcommands() {
        assert!(commands.contains(&sub), "satdoku <TAB> lacks {sub}: {commands:?}");
    }
    let options = complete("satdoku solve --fo", 2);
    assert!(options.contains(&"--format".to_string()), "{options:?}");
    let formats = complete("satdoku solve --format ''", 3);
    assert!(formats.contains(&"json".to_string()) && formats.contains(&"grid".to_string()), "{formats:?}");
}

#[test]
fn every_shell_gets_a_script() {
    for (shell, mark) in
        [("zsh", "#compdef satdoku"), ("fish", "complete -c satdoku"), ("powershell", "Register-ArgumentCompleter")]
    {
        let r = run(&["completions", shell], "");
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(r.stdout.contains(mark), "{shell}: {}", &r.stdout[..200.min(r.stdout.len())]);
        for sub in subcommands() {
            assert!(r.stdout.contains(&sub), "{shell} script lacks {sub}");
        }
        // Syntax-check the script where its shell is installed.
        let check = match shell {
            "zsh" if has("zsh") => Some(Command::new("zsh").args(["-n", "-c", &r.stdout]).output().unwrap()),
            "fish" if has("fish") => Some(Command::new("fish").args(["-n", "-c", &r.stdout]).output().unwrap()),
            _ => None,
        };
        if let Some(out) = check {
            assert!(out.status.success(), "{shell}: {}", String::from_utf8_lossy(&out.stderr));
        }
    }
    let bad = run(&["completions", "tcsh"], "");
    assert_eq!(bad.code, 2);
}
