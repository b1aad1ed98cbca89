"""Board and Move against python-chess, the oracle: mainlines, FENs, SAN, legal moves,
outcomes, keys, over every game of the corpus."""

import random

import pytest

import chessbits
from conftest import corpus_files

chess = pytest.importorskip("chess")
import chess.pgn  # noqa: E402
import chess.polyglot  # noqa: E402


def oracle_games(limit=None):
    for path in corpus_files():
        with open(path, encoding="utf-8", errors="replace") as f:
            n = 0
            while limit is None or n < limit:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                if game.errors:
                    continue
                n += 1
                yield game


def check_same(ours, theirs):
    assert ours.fen() == theirs.fen()
    assert ours.turn == theirs.turn
    assert ours.is_check() == theirs.is_check()
    assert ours.zobrist_hash() == chess.polyglot.zobrist_hash(theirs)
    assert sorted(m.uci() for m in ours.legal_moves) == sorted(m.uci() for m in theirs.legal_moves)
    assert ours.legal_move_count() == theirs.legal_moves.count() == ours.legal_moves.count()
    assert len(ours.legal_moves) == ours.legal_move_count()
    assert ours.ep_square == theirs.ep_square
    assert ours.has_legal_en_passant() == theirs.has_legal_en_passant()


def test_mainlines_fens_san_and_keys_match_python_chess():
    rng = random.Random(34)
    games = 0
    for game in oracle_games():
        theirs = game.board()
        ours = chessbits.Board(theirs.fen(), chess960=theirs.chess960)
        for move in game.mainline_moves():
            san = theirs.san(move)
            assert ours.san(chessbits.Move.from_uci(move.uci())) == san
            played = ours.push_san(san)
            assert played.uci() == move.uci()
            theirs.push(move)
            if rng.random() < 0.2:
                check_same(ours, theirs)
        check_same(ours, theirs)
        assert ours.is_checkmate() == theirs.is_checkmate()
        assert ours.is_stalemate() == theirs.is_stalemate()
        assert ours.result() == theirs.result()
        assert [m.uci() for m in ours.move_stack] == [m.uci() for m in theirs.move_stack]
        games += 1
    assert games > 50


def test_random_playouts_match_python_chess_outcomes():
    rng = random.Random(7)
    for _ in range(60):
        ours, theirs = chessbits.Board(), chess.Board()
        for _ in range(300):
            moves = ours.legal_moves
            assert sorted(m.uci() for m in moves) == sorted(m.uci() for m in theirs.legal_moves)
            if not moves:
                break
            move = rng.choice(list(moves))
            assert move in moves
            ours.push(move)
            theirs.push(chess.Move.from_uci(move.uci()))
            assert ours.is_repetition(3) == theirs.is_repetition(3)
        assert ours.fen() == theirs.fen()
        assert ours.is_insufficient_material() == theirs.is_insufficient_material()
        assert ours.can_claim_threefold_repetition() == theirs.can_claim_threefold_repetition()
        assert ours.can_claim_fifty_moves() == theirs.can_claim_fifty_moves()
        assert ours.is_seventyfive_moves() == theirs.is_seventyfive_moves()
        assert ours.is_fivefold_repetition() == theirs.is_fivefold_repetition()
        mine, oracle = ours.outcome(claim_draw=True), theirs.outcome(claim_draw=True)
        assert (mine is None) == (oracle is None)
        if mine is not None:
            assert mine.result() == oracle.result()
            assert mine.winner == oracle.winner
        # Stalemate with insufficient material: python-chess names the material first.
        plain, oracle_plain = ours.outcome(), theirs.outcome()
        if plain is not None and not (ours.is_stalemate() and ours.is_insufficient_material()):
            assert plain.termination.name == oracle_plain.termination.name
            assert plain.termination.value == oracle_plain.termination.value


def test_push_pop_restore_everything():
    board = chessbits.Board()
    fens = [board.fen()]
    for san in ["e4", "d5", "exd5", "c6", "dxc6", "Nxc6"]:
        board.push_san(san)
        fens.append(board.fen())
    copy = board.copy()
    for fen in reversed(fens[1:]):
        assert board.fen() == fen
        board.pop()
    assert board.fen() == chessbits.STARTING_FEN
    assert copy.fen() == fens[-1]
    with pytest.raises(IndexError):
        board.pop()


def test_move_fields_follow_python_chess():
    for uci in ["e2e4", "e7e8q", "a2a1n", "0000", "h1h8"]:
        ours, theirs = chessbits.Move.from_uci(uci), chess.Move.from_uci(uci)
        assert (ours.from_square, ours.to_square, ours.promotion) == (
            theirs.from_square,
            theirs.to_square,
            theirs.promotion,
        )
        assert ours.uci() == theirs.uci()
        assert bool(ours) == bool(theirs)
    assert chessbits.Move(12, 28) == chessbits.Move.from_uci("e2e4")
    assert len({chessbits.Move(12, 28), chessbits.Move.from_uci("e2e4")}) == 1


def test_conversions_keep_the_game():
    theirs = chess.Board()
    for san in ["e4", "e5", "Nf3", "Nc6", "Bb5"]:
        theirs.push_san(san)
    ours = chessbits.from_chess(theirs)
    assert ours.fen() == theirs.fen()
    assert [m.uci() for m in ours.move_stack] == [m.uci() for m in theirs.move_stack]
    back = chessbits.to_chess(ours)
    assert back.fen() == theirs.fen() and back.move_stack == theirs.move_stack


def test_chess960_castling_is_king_takes_rook():
    fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
    ours = chessbits.Board(fen, chess960=True)
    theirs = chess.Board(fen, chess960=True)
    assert ours.chess960
    assert sorted(m.uci() for m in ours.legal_moves) == sorted(m.uci() for m in theirs.legal_moves)


@pytest.mark.parametrize(
    "fen",
    [
        # Shredder letters naming rooks off the a and h files (issue 40, item 14).
        "4k3/8/8/8/8/8/8/1R2K1R1 w GB - 0 1",
        # A king off e1 with rights.
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1",
    ],
)
def test_a_standard_board_refuses_chess960_castling_rights(fen):
    with pytest.raises(chessbits.PositionError, match="castling field") as info:
        chessbits.Board(fen)
    assert isinstance(info.value, ValueError) and "chess960=True" in str(info.value)
    board = chessbits.Board(fen, chess960=True)
    assert board.chess960
    assert chessbits.Board(board.fen(), chess960=True) == board


def test_shredder_letters_of_standard_rooks_make_a_standard_board():
    # As python-chess: HAha on the standard squares are the rights KQkq.
    board = chessbits.Board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1")
    assert not board.chess960 and board.fen() == chessbits.STARTING_FEN
    assert board.push_san("Nf3").uci() == "g1f3"


def test_move_arguments_are_named_as_python_names_them():
    board = chessbits.Board()
    for method in [board.push, board.is_legal, board.san]:
        with pytest.raises(TypeError) as info:
            method("e2e4")
        assert "r#" not in str(info.value) and "move must be a chessbits.Move" in str(info.value)
    board.push(move=chessbits.Move.from_uci("e2e4"))
    assert board.san(move=chessbits.Move.from_uci("e7e5")) == "e5"


def test_repr_draws_the_board():
    text = repr(chessbits.Board())
    assert text.startswith("Board('" + chessbits.STARTING_FEN + "')")
    assert str(chessbits.Board()) == str(chess.Board())


def test_boards_and_moves_pickle_with_their_history():
    import pickle

    board = chessbits.Board()
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"]:
        board.push_uci(uci)
    back = pickle.loads(pickle.dumps(board))
    assert back.fen() == board.fen() and back.is_repetition(3)
    assert [m.uci() for m in back.move_stack] == [m.uci() for m in board.move_stack]
    move = chessbits.Move.from_uci("e7e8q")
    assert pickle.loads(pickle.dumps(move)) == move
    chess960 = chessbits.Board("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", chess960=True)
    chess960.push_uci("a3a4")
    assert chess960.chess960
    assert pickle.loads(pickle.dumps(chess960)).fen() == chess960.fen()


def test_legal_moves_behave_like_a_sequence():
    moves = chessbits.Board().legal_moves
    assert len(moves) == moves.count() == 20 and bool(moves)
    assert moves[0] == list(moves)[0] and moves[-1] == list(moves)[-1]
    assert chessbits.Move.from_uci("e2e4") in moves and chessbits.Move.from_uci("e2e5") not in moves
    with pytest.raises(IndexError):
        moves[20]
    assert not chessbits.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").legal_moves


def test_every_method_has_a_signature_inspect_reads():
    # A trial found inspect.signature(Board.unicode) raising UnicodeEncodeError on its
    # figurine default, which Jupyter's signature help meets.
    import inspect

    assert inspect.signature(chessbits.Board.unicode).parameters["empty_square"].default == "⭘"
    for name, member in vars(chessbits.Board).items():
        if callable(member) and not name.startswith("__"):
            try:
                inspect.signature(member)
            except UnicodeError:
                raise  # the failure this test is for (a UnicodeError is a ValueError too)
            except ValueError:
                pass  # no signature given: inspect says so, which is not this failure
