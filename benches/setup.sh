# Sourced by the bench scripts that time satdoku commands (blank.sh, hard.sh,
# analyze-sparse.sh), from the repository's root: BIN is the binary to time
# (the release build, built here, unless BIN names another), /usr/bin/time
# must be there, and $work is a scratch directory removed on exit.
if [ -z "${BIN:-}" ]; then
    cargo build --release --quiet
    BIN=target/release/satdoku
fi
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
