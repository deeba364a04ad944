//! Lines of a solver's answer or proof read with a bound on what is held, so that an endless line ends in an error.

use std::io::{self, BufRead};

/// What [`read_line_within`] found.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Bounded {
    /// A line, in the buffer.
    Line,
    /// A line longer than the limit: reading stopped at the limit.
    TooLong,
    /// The end of the input.
    End,
}

/// The longest line that can list each of `var_count` variables as a literal
/// (a model's `v` line, a clause of a proof), held when read: a sign, the
/// digits and a separator for each, twice over for odd spacing, and 64 KiB
/// for a line's letter, its closing 0, a status or a comment. MiniSat writes
/// the whole model on one line, so this grows with the variables: a model
/// of 64 million (a 400×400 grid's full encoding) is a line of about 640 MB.
pub(crate) fn max_literal_line(var_count: usize) -> usize {
    let digits = var_count.max(1).ilog10() as usize + 1;
    var_count.saturating_mul(2 * (digits + 2)).saturating_add(1 << 16)
}

/// Read the next line into `line` (cleared first; the `\n` dropped, a `\r`
/// kept), holding at most `limit` bytes. Past them it stops at once with
/// [`Bounded::TooLong`] rather than read on to the line's end, which an
/// endless input (`/dev/zero`) never reaches.
pub(crate) fn read_line_within(input: &mut impl BufRead, line: &mut Vec<u8>, limit: usize) -> io::Result<Bounded> {
    line.clear();
    let mut any = false;
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(if any { Bounded::Line } else { Bounded::End });
        }
        let end = available.iter().position(|&b| b == b'\n');
        let chunk = &available[..end.unwrap_or(available.len())];
        if line.len() + chunk.len() > limit {
            return Ok(Bounded::TooLong);
        }
        line.extend_from_slice(chunk);
        let used = end.map_or(available.len(), |i| i + 1);
        input.consume(used);
        any = true;
        if end.is_some() {
            return Ok(Bounded::Line);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    /// Every line of `text`, read within `limit`, until the end or a line too long.
    fn lines(text: impl BufRead, limit: usize) -> (Vec<String>, Bounded) {
        let (mut input, mut line, mut found) = (text, Vec::new(), Vec::new());
        loop {
            match read_line_within(&mut input, &mut line, limit).unwrap() {
                Bounded::Line => found.push(String::from_utf8(line.clone()).unwrap()),
                other => return (found, other),
            }
        }
    }

    #[test]
    fn lines_are_split_at_lf_as_bufread_splits_them() {
        for text in ["", "a", "a\n", "a\n\nb c\r\n", "\n\n", "abc\nde"] {
            let expected: Vec<String> =
                BufRead::split(text.as_bytes(), b'\n').map(|l| String::from_utf8(l.unwrap()).unwrap()).collect();
            assert_eq!(lines(text.as_bytes(), 10), (expected, Bounded::End), "{text:?}");
        }
    }

    #[test]
    fn a_line_past_the_limit_stops_at_the_limit() {
        assert_eq!(lines("abc\nabcd\nabcde\n".as_bytes(), 4), (vec!["abc".into(), "abcd".into()], Bounded::TooLong));
        // Endless: nothing ends this line but the limit.
        assert_eq!(lines(io::BufReader::new(io::repeat(0)), 1 << 20), (vec![], Bounded::TooLong));
        // Only what the limit allows (and one buffer more) was read.
        let mut endless = io::BufReader::with_capacity(16, io::repeat(b'x').take(1 << 30));
        assert_eq!(read_line_within(&mut endless, &mut Vec::new(), 100).unwrap(), Bounded::TooLong);
        assert!(endless.into_inner().limit() > (1 << 30) - 200);
    }

    #[test]
    fn the_limit_holds_a_line_of_every_variable() {
        for vars in [0, 1, 9, 10, 729, 99_999, 100_000] {
            let line: String = std::iter::once("v".to_string())
                .chain((1..=vars).map(|v| format!(" -{v}")))
                .chain([" 0".into()])
                .collect();
            assert!(line.len() <= max_literal_line(vars), "{vars}");
        }
    }
}
