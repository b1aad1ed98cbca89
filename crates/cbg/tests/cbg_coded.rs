//! Games coded ahead on other threads (`CodedGame`, `CbgWriter::write_coded`) make the same
//! `.cbg` bytes as games written one by one (`CbgWriter::write_game`), skipped games included.

use chessbits_cbg::{CbgWriter, CodedGame, GameBuilder};
use chessbits_codec::move_codec::{MoveCodec, MoveEncoder};
use chessbits_pgn::SliceReader;
use chessbits_state::Position;

#[test]
fn coded_games_write_the_same_file() {
    let pgn = chessbits_testkit::LICHESS_SAMPLE;
    for codec in [MoveCodec::Model, MoveCodec::Index] {
        let mut one_by_one = CbgWriter::new(Vec::new(), codec).unwrap();
        let mut coded = CbgWriter::new(Vec::new(), codec).unwrap();
        let mut encoder = MoveEncoder::new(codec, &Position::new());
        let mut reader = SliceReader::new(pgn);
        let mut builder = GameBuilder::default();
        let mut games = 0;
        while let Some(game) = reader.read_game(&mut builder) {
            let mut game = game.unwrap();
            game.number = reader.games();
            // Every seventh game and the runs after it are left out, as broken ones are.
            if game.number % 7 == 0 || game.number % 11 < 2 {
                continue;
            }
            let a = one_by_one.write_game(&game).unwrap();
            let b = coded.write_coded(&CodedGame::with_encoder(game, codec, &mut encoder).unwrap());
            assert_eq!(a, b.unwrap());
            games += 1;
        }
        assert!(games > 40, "{games} games");
        assert_eq!(one_by_one.finish().unwrap(), coded.finish().unwrap(), "{codec}");
    }
}

#[test]
fn a_game_coded_for_another_codec_is_refused() {
    let mut reader = SliceReader::new(b"1. e4 e5 *");
    let game = reader.read_game(&mut GameBuilder::default()).unwrap().unwrap();
    let coded = CodedGame::new(game, MoveCodec::Index).unwrap();
    let mut writer = CbgWriter::new(Vec::new(), MoveCodec::Model).unwrap();
    let err = writer.write_coded(&coded).unwrap_err();
    assert_eq!(err.to_string(), "a game coded with index cannot go in a model file");
}
