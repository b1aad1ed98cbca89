//! serde support (feature `serde`): [`UciMove`] as its text (`"e7e8q"`), [`Move16`] and
//! [`Move32`] as their integers. Deserializing a `Move16` rejects the unused flag nibbles
//! `0110` and `0111`; a `Move32` goes through [`Move32::try_from_bits`], so no value that no
//! legal move has gets in.

use serde::de::{Deserialize, Deserializer, Error};
use serde::{Serialize, Serializer};

use crate::{Move16, Move32, UciMove};

chessbits_bitboard::serde_text!(UciMove, "a UCI move such as \"e2e4\"", |s| s.parse::<UciMove>());

impl Serialize for Move16 {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u16(self.bits())
    }
}

impl<'de> Deserialize<'de> for Move16 {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Move16, D::Error> {
        let m = Move16::from_bits(u16::deserialize(deserializer)?);
        if m.kind().is_none() {
            return Err(D::Error::custom(format_args!(
                "move16 {:#06x}: unused flag nibble {:04b}",
                m.bits(),
                m.nibble()
            )));
        }
        Ok(m)
    }
}

impl Serialize for Move32 {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u32(self.bits())
    }
}

impl<'de> Deserialize<'de> for Move32 {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Move32, D::Error> {
        let bits = u32::deserialize(deserializer)?;
        Move32::try_from_bits(bits)
            .map_err(|e| D::Error::custom(format_args!("move32 {bits:#x}: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use chessbits_bitboard::{Color, Piece, Role, Square};

    use crate::{Move16, Move32, MoveKind, UciMove};

    #[test]
    fn moves_serialize_as_text_and_integers() {
        let uci: UciMove = "e7e8q".parse().unwrap();
        assert_eq!(serde_json::to_string(&uci).unwrap(), "\"e7e8q\"");
        assert_eq!(serde_json::from_str::<UciMove>("\"e7e8q\"").unwrap(), uci);
        assert!(serde_json::from_str::<UciMove>("\"e7e9\"").is_err());

        let m16 = Move16::new(Square::E7, Square::E8, MoveKind::Promotion(Role::Queen));
        let json = serde_json::to_string(&m16).unwrap();
        assert_eq!(json, m16.bits().to_string());
        assert_eq!(serde_json::from_str::<Move16>(&json).unwrap(), m16);
        let unused = (0b0110u16 << 12).to_string();
        let err = serde_json::from_str::<Move16>(&unused).unwrap_err().to_string();
        assert!(err.starts_with("move16 0x6000: unused flag nibble 0110"), "{err}");

        let m32 = Move32::new(Square::E2, Square::E4, Piece::new(Color::White, Role::Pawn))
            .with_double_push(true);
        assert_eq!(serde_json::to_string(&m32).unwrap(), "2098956");
        assert_eq!(serde_json::from_str::<Move32>("2098956").unwrap(), m32);
        let err = serde_json::from_str::<Move32>("4294967295").unwrap_err().to_string();
        assert!(err.starts_with("move32 0xffffffff: bits 27-31 are not zero"), "{err}");
    }
}
