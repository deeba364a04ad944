//! The alphabet: which character stands for which value, and which for an empty cell.

use unicode_width::UnicodeWidthChar;

use crate::model::geometry::Value;

/// What a character of puzzle text means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symbol {
    Empty,
    /// A value number (1-based), not yet checked against the grid size.
    Value(usize),
    Unknown,
}

/// Characters for values 1, 2, … and the characters that mean "empty".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alphabet {
    symbols: Vec<char>,
    empty: &'static [char],
    /// Whether lower case reads as upper case (false when the alphabet has both).
    fold_case: bool,
}

const DEFAULT_SYMBOLS: &str = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DEFAULT_EMPTY: [char; 8] = ['.', '0', '_', '*', DOTS[0], DOTS[1], DOTS[2], DOTS[3]];
/// The dots web pages and word processors print for `.`: `·` middle dot,
/// `•` bullet, `∙` bullet operator, `⋅` dot operator.
pub(crate) const DOTS: [char; 4] = ['·', '•', '∙', '⋅'];

impl Default for Alphabet {
    /// 1-9 then A-Z (values 10-35); `.`, `0`, `_` and `*` are empty, and so
    /// are the dots that web pages and word processors print for `.`
    /// (`·` middle dot, `•` bullet, `∙` bullet operator, `⋅` dot operator).
    fn default() -> Alphabet {
        Alphabet { symbols: DEFAULT_SYMBOLS.chars().collect(), empty: &DEFAULT_EMPTY, fold_case: true }
    }
}

impl Alphabet {
    /// A custom alphabet: the k-th character stands for value k. Only `.` is empty.
    pub fn custom(symbols: &str) -> Result<Alphabet, String> {
        let chars: Vec<char> = symbols.chars().collect();
        if chars.is_empty() {
            return Err("the alphabet is empty".into());
        }
        for (i, &ch) in chars.iter().enumerate() {
            // `,`, `;` and `:` part fields (CSV, labels): as symbols they cut
            // a puzzle line into pieces, so satdoku's own output would not read back.
            if ch == '.' || ch.is_whitespace() || matches!(ch, '|' | '+' | '-' | '#' | ',' | ';' | ':') {
                let ch = ch.escape_debug();
                return Err(format!("'{ch}' cannot be a symbol: it means empty, a separator or a comment"));
            }
            // Puzzle text refuses control characters, and XML (the SVG
            // pictures) cannot hold them or U+FFFE and U+FFFF.
            if ch.is_control() || matches!(ch, '\u{FFFE}' | '\u{FFFF}') {
                return Err(format!("U+{:04X} cannot be a symbol: puzzle text and pictures cannot hold it", ch as u32));
            }
            // A combining mark (the accent of a decomposed `é`) or an
            // invisible character (a zero-width space, a joiner) takes no
            // column of its own: printed, it lands on its neighbour or nowhere.
            if ch.width() == Some(0) {
                let code = ch as u32;
                return Err(format!(
                    "U+{code:04X} cannot be a symbol: it takes no room of its own (a combining mark or an invisible \
                     character), so a grid could not show it; give each value one character that stands alone"
                ));
            }
            if chars[..i].contains(&ch) {
                return Err(format!("'{ch}' appears twice in the alphabet"));
            }
        }
        let upper: Vec<char> = chars.iter().map(|c| c.to_ascii_uppercase()).collect();
        let fold_case = (1..upper.len()).all(|i| !upper[..i].contains(&upper[i]));
        Ok(Alphabet { symbols: chars, empty: &['.'], fold_case })
    }

    /// How many values have a single-character symbol.
    pub fn len(&self) -> usize {
        self.symbols.len()
    }

    /// Whether the alphabet has no symbol (never, once built).
    pub fn is_empty(&self) -> bool {
        self.symbols.is_empty()
    }

    /// Whether it writes every value of a side-`n` grid: a `--symbols`
    /// alphabet shorter than the grid cannot.
    pub fn check_side(&self, n: usize) -> Result<(), crate::error::ParseErrorKind> {
        match self.is_custom() && !self.covers(n) {
            true => Err(crate::error::ParseErrorKind::ShortAlphabet { symbols: self.len(), n }),
            false => Ok(()),
        }
    }

    /// Whether it was given (`--symbols`) rather than the default.
    pub fn is_custom(&self) -> bool {
        self.empty.len() == 1
    }

    /// What `ch` means. The default alphabet reads a digit of any script
    /// as its value (`４`, `٤`, `४`, `𝟒` as `4`), and the full-width forms
    /// of its letters and empty marks as theirs (`Ａ`, `．`), as Japanese
    /// and Arabic pages write them: such a grid was read as title lines,
    /// and its puzzle lost.
    pub(crate) fn read(&self, ch: char) -> Symbol {
        let ch = if self.is_custom() { ch } else { ascii_form(ch) };
        if self.empty.contains(&ch) {
            return Symbol::Empty;
        }
        let position = if self.fold_case {
            let up = ch.to_ascii_uppercase();
            self.symbols.iter().position(|s| s.to_ascii_uppercase() == up)
        } else {
            self.symbols.iter().position(|&s| s == ch)
        };
        match position {
            Some(i) => Symbol::Value(i + 1),
            None => Symbol::Unknown,
        }
    }

    /// The symbol of `value`, if the alphabet has one.
    pub fn symbol(&self, value: Value) -> Option<char> {
        self.symbols.get(value.index()).copied()
    }

    /// The character for an empty cell when printing.
    pub fn empty_symbol(&self) -> char {
        '.'
    }

    /// Whether every value of a grid of side `n` prints as one character.
    pub fn covers(&self, n: usize) -> bool {
        n <= self.symbols.len()
    }

    /// What a cell written as a number (a word of a row of numbers, a
    /// spreadsheet's field) may be in a grid of side n, in words.
    pub fn expected_number(n: usize) -> String {
        format!("a number from 1 to {n}, or 0 or '.' for empty")
    }

    /// What is expected in a grid of side `n`, for messages: `1-9, '.' or '0'`.
    pub fn expected(&self, n: usize) -> String {
        let empties = match self.empty {
            [one] => format!("'{one}'"),
            many => {
                let quoted: Vec<String> = many.iter().take(2).map(|c| format!("'{c}'")).collect();
                quoted.join(" or ")
            }
        };
        if !self.covers(n) {
            return format!("numbers 1-{n} separated by spaces, {empties} or 0 for empty");
        }
        let last = self.symbols[n - 1];
        let values = if self.is_custom() {
            self.symbols[..n].iter().collect::<String>()
        } else if n == 1 {
            "1".to_string()
        } else if n <= 9 {
            format!("1-{last}")
        } else {
            format!("1-9, A-{last}")
        };
        format!("{values}, {empties}")
    }
}

/// The first digit (zero) of each run of ten decimal digits that puzzles
/// are written in besides ASCII's: Arabic-Indic, Eastern Arabic-Indic,
/// Devanagari, Bengali, Thai, full-width, and the five mathematical digit
/// styles (bold, double-struck, sans-serif, sans-serif bold, monospace).
const ZEROS: [u32; 11] = [0x0660, 0x06F0, 0x0966, 0x09E6, 0x0E50, 0xFF10, 0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC, 0x1D7F6];

/// `ch` as the ASCII character it stands for: a digit of [`ZEROS`]'s runs,
/// or a full-width form (U+FF01 to U+FF5E, `Ａ` as `A`, `．` as `.`); any
/// other character as it is.
pub(crate) fn ascii_form(ch: char) -> char {
    let code = ch as u32;
    if code < 0x80 {
        return ch;
    }
    if let Some(zero) = ZEROS.iter().find(|&&zero| (zero..zero + 10).contains(&code)) {
        return char::from(b'0' + (code - zero) as u8);
    }
    match code {
        0xFF01..=0xFF5E => char::from_u32(code - 0xFF01 + 0x21).unwrap_or(ch),
        _ => ch,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Digits of other scripts and full-width forms read as their ASCII
    /// characters under the default alphabet, and only there.
    #[test]
    fn digits_of_any_script_and_full_width_forms_read_as_ascii() {
        let a = Alphabet::default();
        for four in ['４', '٤', '۴', '४', '৪', '๔', '𝟒', '𝟜', '𝟦', '𝟰', '𝟺'] {
            assert_eq!(a.read(four), Symbol::Value(4), "{four}");
        }
        assert_eq!(a.read('٩'), Symbol::Value(9));
        assert_eq!(a.read('０'), Symbol::Empty);
        assert_eq!(a.read('．'), Symbol::Empty);
        assert_eq!(a.read('Ａ'), Symbol::Value(10));
        assert_eq!(a.read('ｇ'), Symbol::Value(16));
        assert_eq!(a.read('？'), Symbol::Unknown);
        assert_eq!(a.read('é'), Symbol::Unknown);
        let custom = Alphabet::custom("1234").unwrap();
        assert_eq!(custom.read('４'), Symbol::Unknown);
        assert_eq!(custom.read('4'), Symbol::Value(4));
    }

    #[test]
    fn default_alphabet_reads_digits_letters_and_empties() {
        let a = Alphabet::default();
        assert_eq!(a.read('7'), Symbol::Value(7));
        assert_eq!(a.read('A'), Symbol::Value(10));
        assert_eq!(a.read('g'), Symbol::Value(16));
        assert_eq!(a.read('0'), Symbol::Empty);
        assert_eq!(a.read('_'), Symbol::Empty);
        assert_eq!(a.read('?'), Symbol::Unknown);
        assert_eq!(a.expected(9), "1-9, '.' or '0'");
        assert_eq!(a.expected(16), "1-9, A-G, '.' or '0'");
        assert_eq!(a.expected(1), "1, '.' or '0'");
    }

    #[test]
    fn custom_alphabet_makes_zero_a_value() {
        let a = Alphabet::custom("0123456789ABCDEF").unwrap();
        assert_eq!(a.read('0'), Symbol::Value(1));
        assert_eq!(a.read('f'), Symbol::Value(16));
        assert_eq!(a.read('.'), Symbol::Empty);
        assert_eq!(a.symbol(Value::from_index(15)), Some('F'));
        assert!(Alphabet::custom("12.4").is_err());
        assert!(Alphabet::custom("1231").is_err());
        for invisible in ["\u{1}23", "1\u{7f}3", "12\u{fffe}"] {
            assert!(Alphabet::custom(invisible).unwrap_err().contains("U+"), "{invisible:?}");
        }
        // A decomposed é (e and U+0301), a zero-width space, a zero-width
        // joiner, a variation selector: no room of their own.
        for zero_width in ["e\u{301}12", "1\u{200b}2", "1\u{200d}2", "1\u{fe0f}2"] {
            let error = Alphabet::custom(zero_width).unwrap_err();
            assert!(error.contains("takes no room of its own"), "{zero_width:?}: {error}");
        }
        // Characters of one or two columns stand alone: a composed é, CJK
        // digits, an emoji.
        assert!(Alphabet::custom("\u{e9}一二三😀").is_ok());
        for separator in [",", ";", ":"] {
            assert!(Alphabet::custom(&format!("123{separator}")).is_err(), "{separator}");
        }
    }

    #[test]
    fn mixed_case_alphabets_keep_case() {
        let a = Alphabet::custom("aA").unwrap();
        assert_eq!(a.read('a'), Symbol::Value(1));
        assert_eq!(a.read('A'), Symbol::Value(2));
    }
}
