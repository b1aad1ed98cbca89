//! serde support (feature `serde`): the vocabulary types as their text forms.
//!
//! | type | form | example |
//! |---|---|---|
//! | `Square` | its name | `"e4"` |
//! | `File`, `Rank` | the letter or digit | `"e"`, `"4"` |
//! | `Color` | `Display` | `"white"` |
//! | `Role` | `Display` | `"knight"` |
//! | `Piece` | the FEN letter | `"N"`, `"n"` |
//!
//! The [`serde_text!`](crate::serde_text) macro implements both traits from `Display` and a
//! parse function; the other chessbits crates use it for their own text types.

use crate::{Color, File, Piece, Rank, Role, Square};

/// Implements `serde::Serialize` (as `Display` text) and `serde::Deserialize` (from a string,
/// through `$parse: fn(&str) -> Result<$ty, E>` with `E: Display`) for `$ty`. Every chessbits
/// crate with a `serde` feature uses it, so all text types serialize alike. The calling crate
/// needs `serde` as a dependency.
#[doc(hidden)]
#[macro_export]
macro_rules! serde_text {
    ($ty:ty, $expecting:literal, $parse:expr) => {
        #[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        #[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<$ty, D::Error> {
                struct Text;
                impl serde::de::Visitor<'_> for Text {
                    type Value = $ty;
                    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                        f.write_str($expecting)
                    }
                    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<$ty, E> {
                        let parse: fn(&str) -> Result<$ty, _> = $parse;
                        parse(text).map_err(E::custom)
                    }
                }
                deserializer.deserialize_str(Text)
            }
        }
    };
}

/// The error of the one-name parsers below.
struct BadName(&'static str);

impl core::fmt::Display for BadName {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "expected {}", self.0)
    }
}

/// `Some(c)` if `text` is exactly one character.
fn one_char(text: &str) -> Option<char> {
    let mut chars = text.chars();
    chars.next().filter(|_| chars.next().is_none())
}

serde_text!(Square, "a square name such as \"e4\"", |s| s.parse::<Square>());
serde_text!(File, "a file letter a..h", |s| one_char(s)
    .filter(char::is_ascii)
    .and_then(|c| File::from_ascii(c as u8))
    .ok_or(BadName("a file letter a..h")));
serde_text!(Rank, "a rank digit 1..8", |s| one_char(s)
    .filter(char::is_ascii)
    .and_then(|c| Rank::from_ascii(c as u8))
    .ok_or(BadName("a rank digit 1..8")));
serde_text!(Color, "\"white\" or \"black\"", |s| match s {
    "white" => Ok(Color::White),
    "black" => Ok(Color::Black),
    _ => Err(BadName("\"white\" or \"black\"")),
});
serde_text!(Role, "a role name such as \"knight\"", |s| match s {
    "pawn" => Ok(Role::Pawn),
    "knight" => Ok(Role::Knight),
    "bishop" => Ok(Role::Bishop),
    "rook" => Ok(Role::Rook),
    "queen" => Ok(Role::Queen),
    "king" => Ok(Role::King),
    _ => Err(BadName("a role name: pawn, knight, bishop, rook, queen or king")),
});
serde_text!(Piece, "a FEN piece letter such as \"N\" or \"n\"", |s| one_char(s)
    .and_then(Piece::from_char)
    .ok_or(BadName("a FEN piece letter")));

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<T>(value: T, text: &str)
    where
        T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + core::fmt::Debug,
    {
        let json = serde_json::to_string(&value).unwrap();
        assert_eq!(json, format!("\"{text}\""));
        assert_eq!(serde_json::from_str::<T>(&json).unwrap(), value);
    }

    #[test]
    fn text_forms_round_trip() {
        for sq in Square::ALL {
            round_trip(sq, &sq.to_string());
        }
        round_trip(File::C, "c");
        round_trip(Rank::Seventh, "7");
        round_trip(Color::Black, "black");
        for role in Role::ALL {
            round_trip(role, &role.to_string());
        }
        for piece in Piece::ALL {
            round_trip(piece, &piece.char().to_string());
        }
    }

    #[test]
    fn bad_text_is_an_error_that_says_what_was_expected() {
        let err = |json: &str| serde_json::from_str::<Square>(json).unwrap_err().to_string();
        assert!(err("\"i9\"").starts_with("invalid file 'i'"), "{}", err("\"i9\""));
        assert!(err("17").contains("a square name"), "{}", err("17"));
        let role = serde_json::from_str::<Role>("\"kingg\"").unwrap_err().to_string();
        assert!(role.starts_with("expected a role name"), "{role}");
        assert!(serde_json::from_str::<Piece>("\"Nn\"").is_err());
        assert!(serde_json::from_str::<Color>("\"White\"").is_err());
        assert!(serde_json::from_str::<File>("\"é\"").is_err());
    }
}
