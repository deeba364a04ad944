use anyhow::{ensure, Error};
use std::{env, process::Command, str::from_utf8};

fn have_drat_trim() -> Result<(), Error> {
    println!("rerun-if-env-changed=VARISAT_HAVE_DRAT_TRIM");
    if env::var("VARISAT_HAVE_DRAT_TRIM").is_ok() {
        return Ok(());
    }

    let output = Command::new("drat-trim").output()?;
    let stdout = from_utf8(&output.stdout)?;

    ensure!(
        stdout.contains("force binary proof parse mode"),
        "no force binary proof option found"
    );

    Ok(())
}

fn have_rate() -> Result<(), Error> {
    println!("rerun-if-env-changed=VARISAT_HAVE_RATE");
    if env::var("VARISAT_HAVE_RATE").is_ok() {
        return Ok(());
    }

    let _ = Command::new("rate").arg("--version").output()?;

    Ok(())
}

fn main() {
    // The cfgs the tests are switched with (rustc's unexpected_cfgs lint).
    println!("cargo:rustc-check-cfg=cfg(test_drat_trim)");
    println!("cargo:rustc-check-cfg=cfg(test_rate)");

    // satdoku: no cargo:warning when a checker is missing. The tests that need
    // it are skipped all the same, and a path dependency's build script
    // warnings would show in every build of satdoku.
    if have_drat_trim().is_ok() {
        println!("cargo:rustc-cfg=test_drat_trim");
    }
    if have_rate().is_ok() {
        println!("cargo:rustc-cfg=test_rate");
    }
}
