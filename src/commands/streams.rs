//! Whether stdin and stdout can be used at all, as satdoku was started.
//! Rust's runtime opens /dev/null over a closed standard stream before
//! `main`, and its `Stdout` takes a write that fails with EBADF for a
//! success. A closed stdout (`satdoku solve p.txt >&-`) or one open for
//! reading only (`1<file`) would lose every answer with exit 0; a closed
//! stdin (`satdoku solve <&-`) would read as an empty input, which is no
//! puzzle and exit 0. So the look is taken earlier, by a constructor run as
//! the program is loaded.

use std::sync::atomic::{AtomicU8, Ordering};

/// What the constructor saw of stdin and of stdout: one of the constants below each.
static STDIN: AtomicU8 = AtomicU8::new(USABLE);
static STDOUT: AtomicU8 = AtomicU8::new(USABLE);
const USABLE: u8 = 0;
const CLOSED: u8 = 1;
const WRONG_WAY: u8 = 2;

/// Why stdout cannot take the output, if it cannot: "closed" or "open for
/// reading only".
pub fn stdout_unusable() -> Option<&'static str> {
    match STDOUT.load(Ordering::Relaxed) {
        CLOSED => Some("closed"),
        WRONG_WAY => Some("open for reading only"),
        _ => None,
    }
}

/// Why stdin cannot be read, if it cannot: "closed", "open for writing
/// only", or "a directory" (`satdoku solve < dir`, which reading names
/// only by its error number).
pub fn stdin_unusable() -> Option<&'static str> {
    match STDIN.load(Ordering::Relaxed) {
        CLOSED => Some("closed"),
        WRONG_WAY => Some("open for writing only"),
        _ if is_directory(libc::STDIN_FILENO) => Some("a directory"),
        _ => None,
    }
}

/// Whether descriptor `fd` is open on a directory.
fn is_directory(fd: libc::c_int) -> bool {
    let mut stat = std::mem::MaybeUninit::<libc::stat>::uninit();
    // SAFETY: fstat(2) writes the descriptor's status into `stat`, which
    // is read only where it succeeded.
    unsafe { libc::fstat(fd, stat.as_mut_ptr()) == 0 && stat.assume_init().st_mode & libc::S_IFMT == libc::S_IFDIR }
}

/// How descriptor `fd` is open: [`CLOSED`], [`WRONG_WAY`] when its access
/// mode is `wrong_mode`, else [`USABLE`].
fn state(fd: libc::c_int, wrong_mode: libc::c_int) -> u8 {
    // SAFETY: fcntl(2) with F_GETFL only asks about a descriptor.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    match flags {
        -1 if std::io::Error::last_os_error().raw_os_error() == Some(libc::EBADF) => CLOSED,
        -1 => USABLE,
        flags if flags & libc::O_ACCMODE == wrong_mode => WRONG_WAY,
        _ => USABLE,
    }
}

extern "C" fn look() {
    STDIN.store(state(libc::STDIN_FILENO, libc::O_WRONLY), Ordering::Relaxed);
    STDOUT.store(state(libc::STDOUT_FILENO, libc::O_RDONLY), Ordering::Relaxed);
}

#[cfg_attr(any(target_os = "linux", target_os = "android", target_os = "freebsd"), link_section = ".init_array")]
#[cfg_attr(target_vendor = "apple", link_section = "__DATA,__mod_init_func")]
#[used]
static LOOK: extern "C" fn() = look;
