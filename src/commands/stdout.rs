//! Whether stdout can take the output at all, as satdoku was started.
//! Rust's runtime opens /dev/null over a closed standard stream before
//! `main` (`satdoku solve p.txt >&-`), and its `Stdout` takes a write that
//! fails with EBADF for a success (stdout open for reading only, `1<file`):
//! either way every answer would be lost with exit 0. So the look is taken
//! earlier, by a constructor run as the program is loaded.

use std::sync::atomic::{AtomicU8, Ordering};

/// What the constructor saw: one of the constants below.
static SEEN: AtomicU8 = AtomicU8::new(WRITABLE);
const WRITABLE: u8 = 0;
const CLOSED: u8 = 1;
const READ_ONLY: u8 = 2;

/// Why stdout cannot take the output, if it cannot: "closed" or "open for
/// reading only".
pub fn unusable() -> Option<&'static str> {
    match SEEN.load(Ordering::Relaxed) {
        CLOSED => Some("closed"),
        READ_ONLY => Some("open for reading only"),
        _ => None,
    }
}

extern "C" fn look() {
    // SAFETY: fcntl(2) with F_GETFL only asks about a descriptor.
    let flags = unsafe { libc::fcntl(libc::STDOUT_FILENO, libc::F_GETFL) };
    let seen = match flags {
        -1 if std::io::Error::last_os_error().raw_os_error() == Some(libc::EBADF) => CLOSED,
        -1 => WRITABLE,
        flags if flags & libc::O_ACCMODE == libc::O_RDONLY => READ_ONLY,
        _ => WRITABLE,
    };
    SEEN.store(seen, Ordering::Relaxed);
}

#[cfg_attr(any(target_os = "linux", target_os = "android", target_os = "freebsd"), link_section = ".init_array")]
#[cfg_attr(target_vendor = "apple", link_section = "__DATA,__mod_init_func")]
#[used]
static LOOK: extern "C" fn() = look;
