//! Text input as UTF-8, whatever Unicode encoding its byte-order mark names.
//!
//! Windows writes UTF-16 more often than one would think: Notepad's
//! "Unicode", and PowerShell 5's `>` and `Out-File`. Read as bytes, every
//! other byte of such a file is a NUL, and each line would be an error of
//! its own. A file that opens with a UTF-16 byte-order mark is decoded as it
//! is read, so that the readers behind it see the same lines as in a UTF-8
//! file; so is one without the mark whose first two characters are ASCII
//! with a NUL beside each; anything else passes through untouched (a UTF-8
//! byte-order mark is left to the readers, which already skip it).

use std::io::{self, BufRead, Read};
use std::path::Path;

/// A reader of text that opens with a UTF-16 byte-order mark, decoded to
/// UTF-8 as it is read, or of anything else, passed through. The first read
/// looks for the mark.
pub(crate) struct Decoded<R> {
    input: R,
    state: State,
}

enum State {
    /// Nothing read yet.
    Unknown,
    /// No UTF-16 byte-order mark: the bytes as they are, after the first
    /// one where it had to be taken to see the second.
    Bytes { first: Option<[u8; 1]> },
    /// UTF-16, its mark consumed: decoded a chunk at a time.
    Utf16(Utf16),
}

struct Utf16 {
    /// Little-endian (`FF FE`) or big-endian (`FE FF`).
    little: bool,
    /// A byte of a code unit whose other byte is in the next chunk.
    odd: Option<u8>,
    /// A high surrogate waiting for its low one.
    high: Option<u16>,
    /// Decoded text not yet consumed, from `at` on.
    out: Vec<u8>,
    at: usize,
}

impl<R: BufRead> Decoded<R> {
    pub(crate) fn new(input: R) -> Decoded<R> {
        Decoded { input, state: State::Unknown }
    }

    /// Look at the first bytes for a UTF-16 byte-order mark. A read may
    /// hand over one byte at a time: then the first is taken to see the
    /// second, and given back first where they are no mark.
    fn sniff(&mut self) -> io::Result<()> {
        // Text as ASCII characters go: what a puzzle file opens with.
        let text = |b: u8| b.is_ascii_graphic() || matches!(b, b' ' | b'\t' | b'\r' | b'\n');
        let first = match *self.input.fill_buf()? {
            [a @ (0xFF | 0xFE), ..] => a,
            // UTF-16 saved without a mark (`iconv -t UTF-16LE`): a NUL after
            // (or before) each of the first two characters, which no UTF-8
            // text has. Where the first read is shorter, no guess is made.
            [a, 0, b, 0, ..] | [0, a, 0, b, ..] if text(a) && text(b) => {
                let little = self.input.fill_buf()?[1] == 0;
                self.state = State::Utf16(Utf16 { little, odd: None, high: None, out: Vec::new(), at: 0 });
                return Ok(());
            }
            _ => {
                self.state = State::Bytes { first: None };
                return Ok(());
            }
        };
        self.input.consume(1);
        // The first byte is taken: an interrupted read is tried again, lest
        // the caller's retry start after it.
        let next = loop {
            match self.input.fill_buf() {
                Ok(bytes) => break bytes.first().copied(),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        };
        let little = match (first, next) {
            (0xFF, Some(0xFE)) => true,
            (0xFE, Some(0xFF)) => false,
            _ => {
                self.state = State::Bytes { first: Some([first]) };
                return Ok(());
            }
        };
        self.input.consume(1);
        self.state = State::Utf16(Utf16 { little, odd: None, high: None, out: Vec::new(), at: 0 });
        Ok(())
    }
}

impl Utf16 {
    /// Decode the next chunk of `input` into `out` (left empty at the end).
    fn decode_more(&mut self, input: &mut impl BufRead) -> io::Result<()> {
        self.out.clear();
        self.at = 0;
        while self.out.is_empty() {
            let bytes = match input.fill_buf() {
                Ok(bytes) => bytes,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if bytes.is_empty() {
                // The end: half a code unit, or a high surrogate with no low
                // one, is a character that cannot be read.
                if self.odd.take().is_some() || self.high.take().is_some() {
                    push_char(&mut self.out, char::REPLACEMENT_CHARACTER);
                }
                return Ok(());
            }
            let used = bytes.len();
            let little = self.little;
            let unit = |a: u8, b: u8| if little { u16::from_le_bytes([a, b]) } else { u16::from_be_bytes([a, b]) };
            let mut units = Vec::with_capacity(used / 2 + 1);
            let mut rest = bytes;
            if let Some(first) = self.odd.take() {
                units.push(unit(first, rest[0]));
                rest = &rest[1..];
            }
            let mut pairs = rest.chunks_exact(2);
            units.extend(pairs.by_ref().map(|pair| unit(pair[0], pair[1])));
            self.odd = pairs.remainder().first().copied();
            input.consume(used);
            for unit in units {
                self.push_unit(unit);
            }
        }
        Ok(())
    }

    /// Add one code unit to the text: a character, half of one, or, where a
    /// surrogate has no partner, the replacement character.
    fn push_unit(&mut self, unit: u16) {
        if let Some(high) = self.high.take() {
            if (0xDC00..0xE000).contains(&unit) {
                let c = 0x10000 + ((u32::from(high) - 0xD800) << 10) + (u32::from(unit) - 0xDC00);
                push_char(&mut self.out, char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER));
                return;
            }
            push_char(&mut self.out, char::REPLACEMENT_CHARACTER);
        }
        match unit {
            0xD800..=0xDBFF => self.high = Some(unit),
            0xDC00..=0xDFFF => push_char(&mut self.out, char::REPLACEMENT_CHARACTER),
            _ => push_char(&mut self.out, char::from_u32(u32::from(unit)).unwrap_or(char::REPLACEMENT_CHARACTER)),
        }
    }
}

fn push_char(out: &mut Vec<u8>, c: char) {
    out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
}

impl<R: BufRead> Read for Decoded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Decoded<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if let State::Unknown = self.state {
            self.sniff()?;
        }
        match &mut self.state {
            State::Bytes { first: Some(first) } => Ok(&first[..]),
            State::Unknown | State::Bytes { first: None } => self.input.fill_buf(),
            State::Utf16(utf16) => {
                if utf16.at == utf16.out.len() {
                    utf16.decode_more(&mut self.input)?;
                }
                Ok(&utf16.out[utf16.at..])
            }
        }
    }

    fn consume(&mut self, amount: usize) {
        match &mut self.state {
            State::Bytes { first: first @ Some(_) } => {
                if amount > 0 {
                    *first = None;
                }
            }
            State::Unknown | State::Bytes { first: None } => self.input.consume(amount),
            State::Utf16(utf16) => utf16.at = (utf16.at + amount).min(utf16.out.len()),
        }
    }
}

/// The most bytes [`read_text_file`] reads: a grid file or an f-puzzles
/// puzzle of the largest grid, 1024×1024, with a clue on every cell, fits.
pub const MAX_TEXT_FILE: u64 = 256 << 20;

/// The bytes of a text file, as satdoku's readers see them:
/// UTF-16 with its byte-order mark decoded to UTF-8, a UTF-8 byte-order mark
/// left out, anything else as it is (for the caller to say where a byte
/// that is not UTF-8 is). For the files read whole: grid files, region
/// maps, f-puzzles JSON.
/// At most [`MAX_TEXT_FILE`] bytes: a pipe or a device (`/dev/zero`) may
/// not end.
pub fn read_text_file(path: &Path) -> io::Result<Vec<u8>> {
    let mut raw = Vec::new();
    std::fs::File::open(path)?.take(MAX_TEXT_FILE + 1).read_to_end(&mut raw)?;
    if raw.len() as u64 > MAX_TEXT_FILE {
        let message = format!("more than {} MiB, more than any such file holds", MAX_TEXT_FILE >> 20);
        return Err(io::Error::new(io::ErrorKind::InvalidData, message));
    }
    let mut bytes = Vec::new();
    Decoded::new(&raw[..]).read_to_end(&mut bytes)?;
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    Ok(bytes)
}

/// Where the first byte that is not UTF-8 is, in text as
/// [`String::from_utf8`] refused it: its line and column (in characters,
/// both from 1), and the byte.
pub fn not_utf8_at(error: &std::string::FromUtf8Error) -> (usize, usize, u8) {
    let at = error.utf8_error().valid_up_to();
    let before = String::from_utf8_lossy(&error.as_bytes()[..at]);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column, error.as_bytes()[at])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` encoded as UTF-16 with its byte-order mark.
    fn utf16(text: &str, little: bool) -> Vec<u8> {
        let mut bytes = if little { vec![0xFF, 0xFE] } else { vec![0xFE, 0xFF] };
        for unit in text.encode_utf16() {
            bytes.extend(if little { unit.to_le_bytes() } else { unit.to_be_bytes() });
        }
        bytes
    }

    fn decoded(bytes: &[u8], chunk: usize) -> Vec<u8> {
        // A reader that hands over `chunk` bytes at a time, so that code
        // units and surrogate pairs fall across reads.
        let input = io::BufReader::with_capacity(chunk, bytes);
        let mut out = Vec::new();
        Decoded::new(input).read_to_end(&mut out).unwrap();
        out
    }

    #[test]
    fn utf16_with_its_mark_reads_as_utf8_in_either_byte_order() {
        let text = "1234\r\n3412\n# Überschrift 🧩\n2143\n4321\n";
        for little in [true, false] {
            for chunk in [1, 2, 3, 5, 64] {
                assert_eq!(decoded(&utf16(text, little), chunk), text.as_bytes(), "little {little}, chunk {chunk}");
            }
        }
    }

    /// UTF-16 without a mark (every other byte NUL) read as bytes made each
    /// line an error, and its last NUL one more record.
    #[test]
    fn utf16_without_its_mark_reads_as_utf8_in_either_byte_order() {
        let text = "4.....8.5\r\n# title\n1234\n";
        for little in [true, false] {
            let bytes = utf16(text, little);
            for chunk in [4, 5, 64] {
                assert_eq!(decoded(&bytes[2..], chunk), text.as_bytes(), "little {little}, chunk {chunk}");
            }
        }
    }

    #[test]
    fn other_bytes_pass_through_untouched() {
        for bytes in [&b"1234\n\xEF\xBB\xBF12\n"[..], b"\xEF\xBB\xBF1..\n", b"\xFF\n", b"", b"\xFE", b"\xFE\xFE1"] {
            for chunk in [1, 2, 3, 64] {
                assert_eq!(decoded(bytes, chunk), bytes, "chunk {chunk}");
            }
        }
    }

    #[test]
    fn broken_utf16_is_replacement_characters_not_an_error() {
        // A lone low surrogate, a high one with no partner, half a code unit at the end.
        let mut bytes = vec![0xFF, 0xFE, b'1', 0, 0x00, 0xDC, 0x00, 0xD8, b'2', 0, b'3'];
        assert_eq!(String::from_utf8(decoded(&bytes, 4)).unwrap(), "1\u{FFFD}\u{FFFD}2\u{FFFD}");
        bytes.truncate(8);
        assert_eq!(String::from_utf8(decoded(&bytes, 4)).unwrap(), "1\u{FFFD}\u{FFFD}");
    }
}
