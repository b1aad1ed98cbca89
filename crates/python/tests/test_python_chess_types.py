"""python-chess's types and names where it has the concept (issue 44): ``Piece``,
``SquareSet``, ``Termination``, the square and piece constants, the everyday board members,
``chess.Move`` taken wherever a move is, and the move errors' hierarchy. python-chess is the
oracle, over positions of the corpus's games."""

import io
import pickle
import random
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import chessbits
from test_board import oracle_games

chess = pytest.importorskip("chess")


def test_constants_are_python_chess_values():
    for name in chess.SQUARE_NAMES:
        assert getattr(chessbits, name.upper()) == getattr(chess, name.upper())
    assert chessbits.SQUARE_NAMES == chess.SQUARE_NAMES
    assert chessbits.FILE_NAMES == chess.FILE_NAMES and chessbits.RANK_NAMES == chess.RANK_NAMES
    for name in ["WHITE", "BLACK", "PAWN", "KNIGHT", "BISHOP", "ROOK", "QUEEN", "KING"]:
        assert getattr(chessbits, name) == getattr(chess, name)
    assert chessbits.PIECE_TYPES == chess.PIECE_TYPES and chessbits.COLORS == chess.COLORS
    assert chessbits.PIECE_SYMBOLS == chess.PIECE_SYMBOLS
    assert chessbits.PIECE_NAMES == chess.PIECE_NAMES
    assert chessbits.STATUS_VALID == chess.STATUS_VALID
    for sq in range(64):
        assert chessbits.square_name(sq) == chess.square_name(sq)
        assert chessbits.parse_square(chess.square_name(sq)) == sq
        assert chessbits.square_file(sq) == chess.square_file(sq)
        assert chessbits.square_rank(sq) == chess.square_rank(sq)
        assert chessbits.square(chess.square_file(sq), chess.square_rank(sq)) == sq
    with pytest.raises(ValueError):
        chessbits.parse_square("i9")
    assert [t.name for t in chessbits.Termination] == [t.name for t in chess.Termination]
    assert [t.value for t in chessbits.Termination] == [t.value for t in chess.Termination]


def test_piece_is_python_chess_piece():
    for symbol in "PNBRQKpnbrqk":
        ours, theirs = chessbits.Piece.from_symbol(symbol), chess.Piece.from_symbol(symbol)
        assert type(ours) is chessbits.Piece
        assert (ours.piece_type, ours.color) == (theirs.piece_type, theirs.color)
        assert ours.symbol() == theirs.symbol() == str(ours)
        assert ours.unicode_symbol() == theirs.unicode_symbol()
        assert ours.unicode_symbol(invert_color=True) == theirs.unicode_symbol(invert_color=True)
        assert ours == chessbits.Piece(theirs.piece_type, theirs.color)
        assert pickle.loads(pickle.dumps(ours)) == ours
    assert len({chessbits.Piece(1, True), chessbits.Piece(1, True), chessbits.Piece(1, False)}) == 2
    for bad in ["", "x", "PP"]:
        with pytest.raises(ValueError):
            chessbits.Piece.from_symbol(bad)
    with pytest.raises(ValueError):
        chessbits.Piece(7, True)


def test_square_set_behaves_as_python_chess():
    squares = chessbits.SquareSet(0x8100_0000_0000_0081)
    assert list(squares) == list(chess.SquareSet(0x8100_0000_0000_0081))
    assert len(squares) == 4 and int(squares) == 0x8100_0000_0000_0081
    assert chessbits.A1 in squares and chessbits.B1 not in squares and 64 not in squares
    assert squares == 0x8100_0000_0000_0081 and squares == chessbits.SquareSet(squares)
    assert str(squares) == str(chess.SquareSet(0x8100_0000_0000_0081))
    assert int(squares & 1) == 1 and int(squares | 2) == 0x8100_0000_0000_0083
    assert not chessbits.SquareSet() and pickle.loads(pickle.dumps(squares)) == squares


def check_position(ours, theirs, rng):
    assert ours.board_fen() == theirs.board_fen()
    assert ours.epd() == theirs.epd()
    assert ours.castling_rights == theirs.castling_rights
    assert ours.ep_square == theirs.ep_square
    assert ours.has_legal_en_passant() == theirs.has_legal_en_passant()
    for color in chess.COLORS:
        assert ours.king(color) == theirs.king(color)
        assert ours.has_castling_rights(color) == theirs.has_castling_rights(color)
        assert ours.has_kingside_castling_rights(color) == theirs.has_kingside_castling_rights(color)
        assert ours.has_queenside_castling_rights(color) == theirs.has_queenside_castling_rights(color)
        for piece_type in chess.PIECE_TYPES:
            assert int(ours.pieces(piece_type, color)) == int(theirs.pieces(piece_type, color))
        for sq in rng.sample(range(64), 8):
            assert int(ours.attackers(color, sq)) == int(theirs.attackers(color, sq))
            assert ours.is_attacked_by(color, sq) == theirs.is_attacked_by(color, sq)
    for sq in rng.sample(range(64), 16):
        piece, oracle = ours.piece_at(sq), theirs.piece_at(sq)
        assert (piece is None) == (oracle is None)
        if piece is not None:
            assert type(piece) is chessbits.Piece
            assert (piece.piece_type, piece.color) == (oracle.piece_type, oracle.color)
        assert ours.piece_type_at(sq) == theirs.piece_type_at(sq)
        assert ours.color_at(sq) == theirs.color_at(sq)
    for move in theirs.legal_moves:
        # python-chess's own Move object, taken as it is.
        assert move in ours.legal_moves
        assert ours.is_capture(move) == theirs.is_capture(move)
        assert ours.is_en_passant(move) == theirs.is_en_passant(move)
        assert ours.is_castling(move) == theirs.is_castling(move)
        assert ours.gives_check(move) == theirs.gives_check(move)
        assert ours.san(move) == theirs.san(move)
    assert ours.mirror().fen() == theirs.mirror().fen()
    assert ours.unicode() == theirs.unicode()
    assert ours.unicode(invert_color=True, empty_square=".") == theirs.unicode(
        invert_color=True, empty_square="."
    )
    assert ours.unicode(borders=True, orientation=False) == theirs.unicode(
        borders=True, orientation=False
    )
    assert ours.is_valid() and ours.status() == chessbits.STATUS_VALID == theirs.status()
    # The second round's members (a python-chess user's everyday ones, found missing by an
    # audit against python-chess).
    assert int(ours.checkers()) == int(theirs.checkers())
    assert ours.ply() == theirs.ply()
    assert ours.piece_map() == theirs.piece_map()
    for color in (chess.WHITE, chess.BLACK, 1, 0):
        for sq in rng.sample(range(64), 16):
            assert ours.is_pinned(color, sq) == theirs.is_pinned(bool(color), sq)
    for sq in rng.sample(range(64), 16):
        assert int(ours.attacks(sq)) == int(theirs.attacks(sq))
    assert list(ours.generate_legal_moves()) == list(ours.legal_moves)
    assert {m.uci() for m in ours.generate_legal_captures()} == {
        m.uci() for m in theirs.generate_legal_captures()
    }
    assert ours.is_fifty_moves() == theirs.is_fifty_moves()
    assert ours.fen(shredder=True) == theirs.fen(shredder=True)
    for move in theirs.legal_moves:
        assert ours.uci(move) == theirs.uci(move)
        assert ours.lan(move) == theirs.lan(move)
        assert ours.is_zeroing(move) == theirs.is_zeroing(move)
        assert ours.is_kingside_castling(move) == theirs.is_kingside_castling(move)
        assert ours.is_queenside_castling(move) == theirs.is_queenside_castling(move)
        assert ours.parse_uci(theirs.uci(move)) == move
        # A fully specified move read as SAN, as python-chess reads it.
        assert ours.parse_san(move.uci()) == theirs.parse_san(move.uci())
    # Boards compare as python-chess's do: the position and clocks, not the moves played.
    again = chessbits.Board(ours.fen(en_passant="fen"), chess960=ours.chess960)
    assert ours == again
    assert theirs == chess.Board(theirs.fen(en_passant="fen"), chess960=theirs.chess960)


def test_board_members_match_python_chess_over_corpus_games():
    rng = random.Random(44)
    positions = 0
    for game in oracle_games(limit=40):
        theirs = game.board()
        ours = chessbits.Board(theirs.fen(), chess960=theirs.chess960)
        moves = list(game.mainline_moves())
        start = rng.randrange(max(1, len(moves)))
        assert ours.variation_san(moves) == theirs.variation_san(moves)
        for i, move in enumerate(moves):
            if i == start:
                tail = moves[i : i + 9]
                assert ours.variation_san(tail) == theirs.variation_san(tail)
            if rng.random() < 0.15:
                check_position(ours, theirs, rng)
                positions += 1
            ours.push(move)
            theirs.push(move)
        check_position(ours, theirs, rng)
        outcome = ours.outcome()
        if outcome is not None:
            assert isinstance(outcome.termination, chessbits.Termination)
    assert positions > 100


def test_positions_with_every_special_move():
    fens = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w Kkq - 0 1",
        "8/P7/8/8/8/8/7p/k6K b - - 0 1",
        "4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 2",
    ]
    rng = random.Random(3)
    for fen in fens:
        check_position(chessbits.Board(fen), chess.Board(fen), rng)
    for fen in ["bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"]:
        check_position(chessbits.Board(fen, chess960=True), chess.Board(fen, chess960=True), rng)


def test_a_double_push_sets_ep_square_as_python_chess():
    ours, theirs = chessbits.Board(), chess.Board()
    for san in ["e4", "Nf6", "e5", "d5"]:
        ours.push_san(san)
        theirs.push_san(san)
        assert ours.ep_square == theirs.ep_square
    assert ours.ep_square == chessbits.D6 and ours.has_legal_en_passant()
    ours, theirs = chessbits.Board(), chess.Board()
    ours.push_san("e4")
    theirs.push_san("e4")
    # No black pawn can take: python-chess still sets it, and so do we.
    assert ours.ep_square == theirs.ep_square == chessbits.E3
    assert not ours.has_legal_en_passant()


def test_python_chess_moves_are_taken_everywhere():
    ours = chessbits.Board()
    ours.push(chess.Move.from_uci("e2e4"))
    assert ours.san(chess.Move.from_uci("e7e5")) == "e5"
    assert ours.is_legal(chess.Move.from_uci("e7e5"))
    assert chess.Move.from_uci("e7e5") in ours.legal_moves
    assert ours.variation_san([chess.Move.from_uci("e7e5"), chess.Move.from_uci("g1f3")]) == "1...e5 2. Nf3"
    ours.push(chess.Move.null())
    assert ours.peek() == chessbits.Move.null()
    with pytest.raises(TypeError, match="chessbits.Move or a chess.Move"):
        ours.push("e7e5")
    with pytest.raises(chessbits.IllegalMoveError):
        ours.push(chess.Move.from_uci("e2e4"))
    with pytest.raises(chessbits.IllegalMoveError, match="move 2"):
        chessbits.Board().variation_san([chess.Move.from_uci("e2e4"), chess.Move.from_uci("e2e4")])


def test_move_errors_follow_python_chess_hierarchy():
    names = ["InvalidMoveError", "IllegalMoveError", "AmbiguousMoveError"]
    for name in names:
        ours = getattr(chessbits, name)
        assert issubclass(ours, ValueError) and issubclass(ours, chessbits.ChessbitsError)
        for other in names:
            assert issubclass(ours, getattr(chessbits, other)) == issubclass(
                getattr(chess, name), getattr(chess, other)
            )
    with pytest.raises(chessbits.AmbiguousMoveError):
        chessbits.Board("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1").push_san("Nd2")


def test_a_reading_error_carries_its_place_as_attributes():
    pgn = b"1. e4 e5 *\n\n[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n"
    with pytest.raises(chessbits.PgnError) as caught:
        chessbits.game_positions(pgn, strict=True)
    error = caught.value
    assert (error.game, error.line, error.column, error.ply) == (2, 5, 13, 3)
    assert error.byte == pgn.index(b"Ke3")
    assert str(error).startswith("game 2, line 5, column 13")
    assert chessbits.PgnError("by hand").game is None


def test_set_fen_and_mirror_and_svg():
    board = chessbits.Board()
    board.push_san("e4")
    board.set_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1")
    assert board.move_stack == [] and board.fen() == "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"
    with pytest.raises(chessbits.FenError):
        board.set_fen("not a fen")
    assert board.fen() == "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"
    assert board.mirror().fen() == chess.Board(board.fen()).mirror().fen()
    svg = ET.fromstring(board._repr_svg_())
    assert svg.tag.endswith("svg")
    texts = [t.text for t in svg.iter() if t.tag.endswith("text")]
    assert texts.count("♔") == 1 and texts.count("♖") == 2 and texts.count("♚") == 1


def test_decode_and_cbg_errors_carry_their_place_as_attributes(tmp_path):
    # Two moves code to one byte, which is also the coding of the first five plies of a
    # longer game (the ply count is the game's length); fifty plies run past it.
    data = chessbits.encode_moves(["e2e4", "e7e5"])
    with pytest.raises(chessbits.DecodeError) as caught:
        chessbits.decode_moves(data, 50)
    assert caught.value.ply == 6 and caught.value.byte == 0 and caught.value.bit is None
    packed = bytearray(chessbits.encode_position(chessbits.STARTING_FEN, "packed"))
    packed[0] ^= 0xFF
    with pytest.raises(chessbits.DecodeError) as caught:
        chessbits.decode_position(bytes(packed), "packed")
    assert isinstance(caught.value.bit, int) and caught.value.ply is None
    # A .cbg file of a version this build does not read: the header's version byte.
    path = tmp_path / "games.cbg"
    chessbits.write_cbg(b"1. e4 e5 *\n", path)
    data = bytearray(path.read_bytes())
    data[8] = 99
    path.write_bytes(bytes(data))
    with pytest.raises(chessbits.CbgError, match="version 99") as caught:
        chessbits.read_games(path)
    assert caught.value.byte == 8 and caught.value.game is not None


def test_boards_compare_as_python_chess_boards_do():
    # Castling rights lost by a move, and an en passant square no capture can use, are the
    # same position as the FEN that says so.
    for moves in (["g1h3", "g8h6", "h1g1"], ["e2e4"], ["e2e4", "d7d5", "e4e5", "f7f5"]):
        ours, theirs = chessbits.Board(), chess.Board()
        for uci in moves:
            ours.push_uci(uci)
            theirs.push_uci(uci)
        assert (ours == chessbits.Board(ours.fen())) == (theirs == chess.Board(theirs.fen()))
        assert ours == chessbits.Board(ours.fen(en_passant="fen"))
    ep_unused = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    assert chessbits.Board(ep_unused) == chessbits.Board(ep_unused.replace(" e3 ", " - "))
    assert chess.Board(ep_unused) == chess.Board(ep_unused.replace(" e3 ", " - "))
    # The clocks count, as in python-chess.
    later = chessbits.STARTING_FEN.replace(" 0 1", " 2 3")
    assert chessbits.Board() != chessbits.Board(later)
    assert chess.Board() != chess.Board(later)


def test_moves_pieces_and_terminations_equal_python_chess_ones():
    for uci in ["e2e4", "e7e8q", "a2a1n", "0000", "e1g1"]:
        ours, theirs = chessbits.Move.from_uci(uci), chess.Move.from_uci(uci)
        assert ours == theirs and theirs == ours and not ours != theirs
        assert hash(ours) == hash(theirs)
        assert {theirs: uci}[ours] == uci and {ours: uci}[theirs] == uci
    assert chessbits.Move.from_uci("e2e4") != chess.Move.from_uci("e2e3")
    assert chessbits.Move.from_uci("e7e8q") != chess.Move.from_uci("e7e8n")
    assert chessbits.Move.from_uci("e2e4") != "e2e4"
    assert list(chessbits.Board().legal_moves).index(chess.Move.from_uci("g1f3")) >= 0
    for symbol in "PNBRQKpnbrqk":
        ours, theirs = chessbits.Piece.from_symbol(symbol), chess.Piece.from_symbol(symbol)
        assert ours == theirs and theirs == ours and hash(ours) == hash(theirs)
        assert ours != chess.Piece.from_symbol(symbol.swapcase())
    for termination in chess.Termination:
        ours = chessbits.Termination[termination.name]
        assert ours == termination and termination == ours and hash(ours) == hash(termination)
        assert ours != chess.Termination(termination.value % 10 + 1)
    mate = chessbits.Board()
    for uci in ["f2f3", "e7e5", "g2g4", "d8h4"]:
        mate.push_uci(uci)
    assert mate.outcome().termination == chess.Termination.CHECKMATE


def test_colors_are_taken_as_python_chess_takes_them():
    ours, theirs = chessbits.Board(), chess.Board()
    for color in (chess.WHITE, chess.BLACK, 1, 0, np.bool_(True)):
        assert ours.king(color) == theirs.king(bool(color))
        assert int(ours.pieces(chess.PAWN, color)) == int(theirs.pieces(chess.PAWN, bool(color)))
        assert ours.has_castling_rights(color) and ours.is_attacked_by(color, chess.E4) is False
    assert chessbits.Piece(chess.KNIGHT, 0) == chess.Piece(chess.KNIGHT, chess.BLACK)
    for bad in ("white", 2, None, 1.5):
        with pytest.raises(TypeError, match="color must be WHITE or BLACK") as raised:
            ours.king(bad)
        assert "Rust" not in str(raised.value) and "r#" not in str(raised.value)


def test_square_sets_are_made_and_combined_as_python_chess_sets():
    sources = ([1, 2, 63], range(8), (), -1, 1 << 64, (1 << 64) + 5, 0xFF00, chess.SquareSet(0x81))
    for source in sources:
        ours, theirs = chessbits.SquareSet(source), chess.SquareSet(source)
        assert int(ours) == int(theirs) and repr(ours) == repr(theirs)
        assert chessbits.SquareSet(ours) == ours == theirs and ours == list(theirs)
    ours, theirs = chessbits.SquareSet(0xFF00), chess.SquareSet(0xFF00)
    for other in (0x0F0F, [8, 9, 40], chess.SquareSet(0x0300)):
        assert int(ours - other) == int(theirs - other)
        assert int(ours & other) == int(theirs & other)
        assert int(ours | other) == int(theirs | other)
        assert ours.issubset(other) == theirs.issubset(other)
        assert ours.issuperset(other) == theirs.issuperset(other)
        assert ours.isdisjoint(other) == theirs.isdisjoint(other)
    for shift in (0, 1, 8, 60, 64, 70):
        assert int(ours << shift) == int(theirs << shift)
        assert int(ours >> shift) == int(theirs >> shift)
    assert int(ours.mirror()) == int(theirs.mirror())
    assert list(reversed(ours)) == list(reversed(theirs))
    with pytest.raises(IndexError):
        chessbits.SquareSet([64])
    for bad in (object(), "x", [1, "a"]):
        with pytest.raises(TypeError) as raised:
            chessbits.SquareSet(bad)
        assert "Mask" not in str(raised.value) and "variant" not in str(raised.value)


def test_square_sets_change_in_place_as_python_chess_sets():
    # Random in-place changes on both libraries' sets, compared after each.
    rng = random.Random(7)
    ours, theirs = chessbits.SquareSet(), chess.SquareSet()
    operations = [
        ("add", lambda: (rng.randrange(64),)),
        ("discard", lambda: (rng.randrange(64),)),
        ("update", lambda: (rng.getrandbits(64), [rng.randrange(64)])),
        ("intersection_update", lambda: (rng.getrandbits(64) | rng.getrandbits(64),)),
        ("difference_update", lambda: (rng.getrandbits(64) & rng.getrandbits(64),)),
        ("symmetric_difference_update", lambda: (rng.getrandbits(16),)),
    ]
    for _ in range(2000):
        name, arguments = rng.choice(operations)
        args = arguments()
        getattr(ours, name)(*args)
        getattr(theirs, name)(*args)
        assert int(ours) == int(theirs) == ours.mask, name
        if rng.random() < 0.1 and theirs:
            assert ours.pop() == theirs.pop()
        square = rng.randrange(64)
        if square in theirs:
            ours.remove(square)
            theirs.remove(square)
        else:
            with pytest.raises(KeyError):
                ours.remove(square)
        other = rng.getrandbits(64) & rng.getrandbits(64)
        for method in ("union", "intersection", "difference", "symmetric_difference"):
            assert int(getattr(ours, method)(other)) == int(getattr(theirs, method)(other))
    # The in-place operators change the set itself, as python-chess's do.
    same = ours
    ours |= 0x0F
    ours &= 0x3C
    ours ^= 0x01
    ours -= 0x04
    ours <<= 9
    ours >>= 1
    assert ours is same and int(ours) == ((((0x0F | int(theirs)) & 0x3C) ^ 0x01) & ~0x04) << 9 >> 1
    copy = ours.copy()
    copy.clear()
    assert not copy and ours and copy is not ours
    ours.mask = 0x81
    assert list(ours) == [0, 7]
    with pytest.raises(KeyError):
        chessbits.SquareSet().pop()
    with pytest.raises(TypeError):
        hash(ours)  # it changes, so it is no key (python-chess's is not either)
    for a in range(0, 64, 3):
        for b in range(64):
            assert int(chessbits.SquareSet.between(a, b)) == int(chess.SquareSet.between(a, b))
            assert int(chessbits.SquareSet.ray(a, b)) == int(chess.SquareSet.ray(a, b))
        assert int(chessbits.SquareSet.from_square(a)) == int(chess.SquareSet.from_square(a))


def test_san_takes_fully_specified_moves_and_draw_claims_need_a_move():
    ours, theirs = chessbits.Board(), chess.Board()
    for text in ("g1f3", "e2e4", "Ng1f3"):
        assert ours.parse_san(text) == theirs.parse_san(text)
    castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    for text in ("e1g1", "e1c1", "O-O"):
        assert chessbits.Board(castle).parse_san(text) == chess.Board(castle).parse_san(text)
    for bad in ("g1g3", "e2e5"):
        with pytest.raises(chessbits.IllegalMoveError):
            ours.parse_san(bad)
        with pytest.raises(chess.IllegalMoveError):
            theirs.parse_san(bad)
    assert ours.push_san("g1f3") == chess.Move.from_uci("g1f3") and ours.ply() == 1
    ours.reset()
    assert ours == chessbits.Board() and ours.move_stack == []
    # A stalemate at the fifty-move clock: no claim, as python-chess says; with a move
    # to play, a claim.
    for fen, claim in (
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 100 80", False),
        ("7k/8/6K1/8/8/8/5Q2/8 b - - 100 80", True),
    ):
        assert chessbits.Board(fen).can_claim_fifty_moves() is claim
        assert chess.Board(fen).can_claim_fifty_moves() is claim
        assert chessbits.Board(fen).can_claim_draw() == chess.Board(fen).can_claim_draw()


def test_copies_keep_as_many_moves_as_python_chess_copies():
    ours, theirs = chessbits.Board(), chess.Board()
    # Back to the start: the start position stands twice in the full history.
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8"]:
        ours.push_uci(uci)
        theirs.push_uci(uci)
    for stack in (True, False, 0, 1, 3, 4, 9):
        copy, oracle = ours.copy(stack=stack), theirs.copy(stack=stack)
        assert [m.uci() for m in copy.move_stack] == [m.uci() for m in oracle.move_stack]
        assert copy == ours and copy.root().fen() == oracle.root().fen()
        # The moves kept are the history that repetitions are counted over.
        assert copy.is_repetition(2) == oracle.is_repetition(2)
    assert ours.copy().move_stack == ours.move_stack and ours.copy().is_repetition(2)
    with pytest.raises(ValueError):
        ours.copy(stack=-1)


def test_san_and_moves_as_python_chess_reads_them():
    import chess.pgn
    # A pawn move without its file is a push: `d5` and `xd5` never name `exd5` (they were
    # read as the capture, and a PGN game with such a move read on as valid).
    fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    ours, theirs = chessbits.Board(fen), chess.Board(fen)
    for san in ("d5", "xd5", "Pd5", "Pxd5"):
        with pytest.raises(chessbits.IllegalMoveError):
            ours.parse_san(san)
        with pytest.raises(ValueError):  # python-chess: `P` is no SAN (InvalidMoveError)
            theirs.parse_san(san)
    for san in ("exd5", "ed5", "e4xd5", "e4d5", "e5"):
        assert ours.parse_san(san) == theirs.parse_san(san), san
    promote = "2r4r/5pPk/P1nq4/7p/4p1P1/2p1B1P1/Bp3QK1/R6R w - - 5 8"
    with pytest.raises(chessbits.IllegalMoveError):
        chessbits.Board(promote).parse_san("h8=Q#")
    assert chessbits.Board(promote).parse_san("gxh8=Q#").uci() == "g7h8q"
    table = chessbits.read_games(b"1. e4 d5 2. d5 Qxd5 *\n").to_pylist()[0]
    assert table["moves"] == []  # a failed game's row holds its number and error
    assert table["error"] is not None and "d5" in table["error"]
    # Long algebraic, as the PGN reader and python-chess read it.
    start, theirs = chessbits.Board(), chess.Board()
    for san in ("g1-f3", "g1xf3", "Ng1-f3", "e2-e4"):
        assert start.parse_san(san) == theirs.parse_san(san), san
    # `e.p.` after an en passant capture, in movetext.
    pgn = b"1. e4 Nf6 2. e5 d5 3. exd6 e.p. cxd6 *\n"
    game = chess.pgn.read_game(io.StringIO(pgn.decode()))
    row = chessbits.read_games(pgn).to_pylist()[0]
    assert row["error"] is None
    assert row["moves"] == [m.uci() for m in game.mainline_moves()]
    # Evaluation symbols written as text, as annotated books print them: python-chess reads
    # past them, and so does the reader (as the glyphs they stand for).
    pgn = "1. e4 e5 += 2. Nf3 \u00b1 Nc6 = 3. Bb5 +/- a6 -+ 4. Ba4 +- *\n"
    game = chess.pgn.read_game(io.StringIO(pgn))
    row = chessbits.read_games(pgn.encode()).to_pylist()[0]
    assert row["error"] is None and not game.errors
    assert row["moves"] == [m.uci() for m in game.mainline_moves()]
    # The null move: Move(0, 0), as chess.Move(0, 0); `a1a1` is no UCI move.
    assert not chessbits.Move(0, 0) and chessbits.Move(0, 0) == chess.Move(0, 0)
    assert chessbits.Move(0, 0) == chessbits.Move.null() and chessbits.Move(0, 0).uci() == "0000"
    assert chessbits.Move(0, 8) and chessbits.Move(0, 8).uci() == "a1a2"
    with pytest.raises(chessbits.InvalidMoveError, match="0000"):
        chessbits.Move.from_uci("a1a1")
    with pytest.raises(chess.InvalidMoveError):
        chess.Move.from_uci("a1a1")
    for parse in ("parse_uci", "push_uci"):
        with pytest.raises(chessbits.InvalidMoveError):
            getattr(chessbits.Board(), parse)("e2e2")
        with pytest.raises(chess.InvalidMoveError):
            getattr(chess.Board(), parse)("e2e2")
    # One rule for the null move, whichever library's move comes in.
    for args in ((0, 0), (12, 12), (0, 0, chess.QUEEN), (12, 28)):
        assert (chessbits.Move(*args) == chess.Move(*args)) and bool(chessbits.Move(*args)) == bool(
            chess.Move(*args)
        ), args


def test_what_a_differential_trial_found_now_agrees_with_python_chess():
    """Session 34's trial against python-chess: each of these differed."""
    # Chess960: castling is the king onto its rook; a king's two-file move names nothing.
    ours, theirs = chessbits.Board.from_chess960_pos(518), chess.Board.from_chess960_pos(518)
    for uci in "g1f3 g8f6 e2e3 e7e6 f1e2 f8e7".split():
        ours.push_uci(uci)
        theirs.push_uci(uci)
    for uci in ("e1g1", "e1h1"):
        m = chessbits.Move.from_uci(uci)
        assert ours.is_legal(m) == theirs.is_legal(chess.Move.from_uci(uci)), uci
        assert ours.is_legal(m) == (m in ours.legal_moves), uci
        assert ours.is_pseudo_legal(m) == theirs.is_pseudo_legal(chess.Move.from_uci(uci)), uci
    with pytest.raises(chessbits.IllegalMoveError):
        ours.push_uci("e1g1")
    board = chessbits.Board("4k3/8/8/8/8/8/8/2KR4 w D - 0 1", chess960=True)
    for parse in (board.parse_uci, board.parse_san):
        with pytest.raises(chessbits.IllegalMoveError):
            parse("c1g1")
    assert board.parse_uci("c1d1") == chessbits.Move.from_uci("c1d1")
    theirs = chess.Board("4k3/8/8/8/8/8/8/2KR4 w D - 0 1", chess960=True)
    assert repr(board).splitlines()[0] == repr(theirs)
    # En passant only one file over: e5c6 onto the en passant square is no capture.
    fen = "rnbqkbnr/pp1ppppp/8/2p1P3/8/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 3"
    for uci in ("e5c6", "a2c6", "d2c6"):
        theirs = chess.Board(fen)
        m = chess.Move.from_uci(uci)
        assert chessbits.Board(fen).is_en_passant(m) == theirs.is_en_passant(m) is False, uci
        assert chessbits.Board(fen).is_capture(m) == theirs.is_capture(m) is False, uci
    fen = "rnbqkbnr/pp1ppppp/8/1Pp5/8/8/P1PPPPPP/RNBQKBNR w KQkq c6 0 3"
    assert chessbits.Board(fen).is_en_passant(chess.Move.from_uci("b5c6"))
    # Promoted marks are read and dropped, as python-chess writes the FEN back.
    fen = "4k3/8/8/8/8/8/8/Q~3K3 w - - 0 1"
    assert chessbits.Board(fen).fen() == chess.Board(fen).fen()
    board = chessbits.Board()
    board.set_board_fen("4k3/8/8/8/8/8/8/Q~3K3")
    assert board.board_fen() == "4k3/8/8/8/8/8/8/Q3K3"
    with pytest.raises(chessbits.FenError):
        chessbits.Board("~4k3/8/8/8/8/8/8/Q3K3 w - - 0 1")
    # The null move leaves the king in check only when it is in check.
    null = chessbits.Move.null()
    assert chessbits.Board().is_into_check(null) is chess.Board().is_into_check(chess.Move.null())
    checked = "rnb1kbnr/pppp1ppp/8/4p3/5PPq/8/PPPPP2P/RNBQKBNR w KQkq - 1 3"
    assert chessbits.Board(checked).is_into_check(null) is True
