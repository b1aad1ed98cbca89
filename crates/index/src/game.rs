//! What the index keeps of each game besides its moves: the numbers that filters and the
//! explorer read ([`GameFacts`]), its speed ([`Speed`]) and the filters themselves
//! ([`Filter`]).

use core::fmt;

use chessbits_movegen::GameResult;

/// A game's speed, from its `TimeControl` tag as lichess classes it: the estimated duration
/// `initial + 40 * increment` seconds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Speed {
    /// No `TimeControl`, or one that does not read.
    Unknown = 0,
    /// Under 30 seconds.
    UltraBullet = 1,
    /// Under 3 minutes.
    Bullet = 2,
    /// Under 8 minutes.
    Blitz = 3,
    /// Under 25 minutes.
    Rapid = 4,
    /// 25 minutes or more.
    Classical = 5,
    /// `-`: days per move.
    Correspondence = 6,
}

impl Speed {
    /// Every speed, in the order of their codes.
    pub const ALL: [Speed; 7] = [
        Speed::Unknown,
        Speed::UltraBullet,
        Speed::Bullet,
        Speed::Blitz,
        Speed::Rapid,
        Speed::Classical,
        Speed::Correspondence,
    ];

    /// The speed of a `TimeControl` value: `300+3`, `60`, `-`; fractions of a second as
    /// cutechess and fastchess write them (`154.283+1.543`, `10+0.05`); the first period of
    /// the PGN standard's `moves/seconds` forms (`40/5400+30:1800+30` is 5,400 + 40 x 30 s)
    /// and a sandclock (`*180`). Anything else (`?`, text) is [`Speed::Unknown`].
    pub fn of_time_control(value: &[u8]) -> Speed {
        if value == b"-" {
            return Speed::Correspondence;
        }
        let text = core::str::from_utf8(value).unwrap_or("").trim();
        let period = text.split(':').next().unwrap_or("");
        let period = period.split_once('/').map_or(period, |(_, rest)| rest);
        let period = period.strip_prefix('*').unwrap_or(period);
        let (initial, increment) = period.split_once('+').unwrap_or((period, "0"));
        let (Some(initial), Some(increment)) = (millis(initial), millis(increment)) else {
            return Speed::Unknown;
        };
        match initial.saturating_add(increment.saturating_mul(40)) / 1000 {
            0..30 => Speed::UltraBullet,
            30..180 => Speed::Bullet,
            180..480 => Speed::Blitz,
            480..1500 => Speed::Rapid,
            _ => Speed::Classical,
        }
    }

    /// The speed with code `code`.
    pub fn from_code(code: u8) -> Option<Speed> {
        Speed::ALL.get(usize::from(code)).copied()
    }

    /// The name lichess gives it: `ultraBullet`, `bullet`, ..., `unknown`.
    pub fn name(self) -> &'static str {
        match self {
            Speed::Unknown => "unknown",
            Speed::UltraBullet => "ultraBullet",
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
        }
    }
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl core::str::FromStr for Speed {
    type Err = String;

    fn from_str(s: &str) -> Result<Speed, String> {
        Speed::ALL
            .into_iter()
            .find(|speed| speed.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown speed {s:?} (ultraBullet, bullet, blitz, rapid, classical, correspondence, unknown)"))
    }
}

/// Seconds written in decimal (`154`, `1.543`, `0.05`) as whole milliseconds (a fourth
/// decimal and on dropped); `None` for anything else (a sign, an exponent, no digits).
fn millis(text: &str) -> Option<u64> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() && fraction.is_empty() || !digits(whole) || !digits(fraction) {
        return None;
    }
    let whole = if whole.is_empty() { 0 } else { whole.parse::<u64>().ok()? };
    let fraction = fraction.bytes().chain(core::iter::repeat(b'0')).take(3);
    let fraction = fraction.fold(0, |n, b| n * 10 + u64::from(b - b'0'));
    Some(whole.saturating_mul(1000).saturating_add(fraction))
}

/// The lower bounds of the rating bands (the players' average rating) that the explorer's
/// aggregates and the rating filter count by: lichess's opening explorer's groups.
pub const RATING_BANDS: [u16; 9] = [0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500];

/// The band of an average rating: the index of the last bound at most `rating`.
pub fn rating_band(rating: u16) -> u8 {
    RATING_BANDS.iter().rposition(|&low| low <= rating).unwrap_or(0) as u8
}

/// What filters and the explorer read of a game, in a few bytes.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct GameFacts {
    /// The result: 0 `*`, 1 `1-0`, 2 `0-1`, 3 `1/2-1/2`: the `Result` tag's when it is one of
    /// these, else the movetext's marker.
    pub result: u8,
    /// The [`Speed`] code.
    pub speed: u8,
    /// The date as `yyyymmdd` (`??` parts as 0): `Date`'s, or `UTCDate`'s where `Date` is
    /// absent or has no year; 0 if neither gives one.
    pub date: u32,
    /// `WhiteElo`, 0 if unknown.
    pub white_elo: u16,
    /// `BlackElo`, 0 if unknown.
    pub black_elo: u16,
}

impl GameFacts {
    /// The result as a [`GameResult`].
    pub fn result(&self) -> GameResult {
        match self.result {
            1 => GameResult::WhiteWins,
            2 => GameResult::BlackWins,
            3 => GameResult::Draw,
            _ => GameResult::Unknown,
        }
    }

    /// The code of `result`.
    pub fn result_code(result: Option<GameResult>) -> u8 {
        match result {
            Some(GameResult::WhiteWins) => 1,
            Some(GameResult::BlackWins) => 2,
            Some(GameResult::Draw) => 3,
            _ => 0,
        }
    }

    /// The players' average rating when both are known.
    pub fn average_rating(&self) -> Option<u16> {
        (self.white_elo > 0 && self.black_elo > 0)
            .then(|| ((u32::from(self.white_elo) + u32::from(self.black_elo)) / 2) as u16)
    }

    /// The [rating band](RATING_BANDS) of the average rating, `u8::MAX` if unknown.
    pub fn band(&self) -> u8 {
        self.average_rating().map_or(u8::MAX, rating_band)
    }

    /// The month as `yyyy * 12 + (mm - 1)`, 0 if the date has no year or month.
    pub fn month(&self) -> u16 {
        let (year, month) = (self.date / 10_000, self.date / 100 % 100);
        if year == 0 || month == 0 {
            0
        } else {
            (year * 12 + month - 1).min(u32::from(u16::MAX)) as u16
        }
    }
}

/// Reads a PGN `Date` (`2021.10.31`, `2021.??.??`) as `yyyymmdd`, unknown parts as 0. The
/// year is four digits, the month and day one or two (`??` or out of range: unknown); any
/// other form is an unknown date, so that `21.10.2021` is no game of the year 21.
pub fn parse_date(value: &[u8]) -> u32 {
    let mut parts = value.split(|&b| b == b'.');
    let mut number = |lengths: core::ops::RangeInclusive<usize>, max: u32| -> Option<u32> {
        let part = parts.next().unwrap_or(b"");
        if part.iter().all(|&b| b == b'?') {
            return Some(0);
        }
        if !lengths.contains(&part.len()) || !part.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let n = part.iter().fold(0, |n, &b| n * 10 + u32::from(b - b'0'));
        Some(if n > max { 0 } else { n })
    };
    let (Some(year), Some(month), Some(day)) =
        (number(4..=4, 9999), number(1..=2, 12), number(1..=2, 31))
    else {
        return 0;
    };
    if year == 0 || parts.next().is_some() {
        return 0;
    }
    year * 10_000 + month * 100 + day
}

/// Which games a query counts: by result, month, average rating and speed. Every bound is
/// inclusive; an unset one lets every game through. Months and ratings are compared at the
/// granularity the explorer's aggregates keep (a month; a band of [`RATING_BANDS`]), so
/// that every query gives the same answer whether it reads aggregates or replays games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// Only these results (codes as [`GameFacts::result`]); empty: every result.
    pub results: Vec<u8>,
    /// The first month (`yyyymm`), if any.
    pub since: Option<u32>,
    /// The last month (`yyyymm`), if any.
    pub until: Option<u32>,
    /// The lowest average rating (its whole band counts); games without both ratings are
    /// left out when a rating bound is set.
    pub min_rating: Option<u16>,
    /// The highest average rating (its whole band counts).
    pub max_rating: Option<u16>,
    /// Only these speeds; empty: every speed.
    pub speeds: Vec<Speed>,
}

impl Filter {
    /// Whether a game with these facts passes.
    pub fn passes(&self, facts: &GameFacts) -> bool {
        self.passes_group(facts.result, facts.speed, facts.band(), facts.month())
    }

    /// Whether the games of one aggregate group pass: a result, a speed, a band, a month.
    pub fn passes_group(&self, result: u8, speed: u8, band: u8, month: u16) -> bool {
        if !self.results.is_empty() && !self.results.contains(&result) {
            return false;
        }
        if !self.speeds.is_empty() && !self.speeds.iter().any(|s| *s as u8 == speed) {
            return false;
        }
        let month_of = |yyyymm: u32| (yyyymm / 100 * 12 + (yyyymm % 100).max(1) - 1) as u16;
        if self.since.is_some_and(|since| month == 0 || month < month_of(since)) {
            return false;
        }
        if self.until.is_some_and(|until| month == 0 || month > month_of(until)) {
            return false;
        }
        if self.min_rating.is_some_and(|min| band == u8::MAX || band < rating_band(min)) {
            return false;
        }
        if self.max_rating.is_some_and(|max| band == u8::MAX || band > rating_band(max)) {
            return false;
        }
        true
    }

    /// Whether this filter lets every game through.
    pub fn is_empty(&self) -> bool {
        *self == Filter::default()
    }
}

/// The code of a result as PGN writes it (`1-0`, `0-1`, `1/2-1/2`, `*`), as
/// [`GameFacts::result`] keeps it.
pub fn parse_result(text: &str) -> Option<u8> {
    match text.trim() {
        "*" => Some(0),
        "1-0" => Some(1),
        "0-1" => Some(2),
        "1/2-1/2" => Some(3),
        _ => None,
    }
}

/// A month written `YYYY-MM` as `yyyymm`, as [`Filter::since`] and [`Filter::until`] take it.
///
/// # Errors
/// A message for text that is not a month.
pub fn parse_month(text: &str) -> Result<u32, String> {
    let bad = || format!("{text:?} is not a month (YYYY-MM)");
    let (y, m) = text.trim().split_once('-').ok_or_else(bad)?;
    match (y.parse::<u32>(), m.parse::<u32>()) {
        (Ok(y), Ok(m)) if (1..=9999).contains(&y) && (1..=12).contains(&m) => Ok(y * 100 + m),
        _ => Err(bad()),
    }
}

/// A `yyyymmdd` date as PGN writes it (`2021.10.??`); empty for 0 (no date).
pub fn format_date(date: u32) -> String {
    if date == 0 {
        return String::new();
    }
    let part =
        |n: u32, width: usize| if n == 0 { "?".repeat(width) } else { format!("{n:0width$}") };
    format!("{}.{}.{}", part(date / 10_000, 4), part(date / 100 % 100, 2), part(date % 100, 2))
}

impl Filter {
    /// A filter from the text a user gives: results (`1-0,1/2-1/2`), months (`YYYY-MM`),
    /// ratings, speeds (`blitz,rapid`); `None` for a bound not given. A rating must be one of
    /// [`RATING_BANDS`], since ratings count by band: `min 1600 max 2000` takes the games
    /// averaging 1600 to 2199 (2000's whole band). A value inside a band (2300) is refused,
    /// where it would have been read as its band's (a trial's "at least 3000" returned games
    /// averaging 2501).
    ///
    /// # Errors
    /// A message naming the first value that does not read.
    pub fn from_text(
        results: Option<&str>,
        (since, until): (Option<&str>, Option<&str>),
        (min_rating, max_rating): (Option<u16>, Option<u16>),
        speeds: Option<&str>,
    ) -> Result<Filter, String> {
        for (name, rating) in [("min_rating", min_rating), ("max_rating", max_rating)] {
            if let Some(rating) = rating.filter(|r| !RATING_BANDS.contains(r)) {
                let bands = RATING_BANDS.map(|b| b.to_string()).join(", ");
                return Err(format!(
                    "{name} {rating} is not a rating band ({bands}): ratings count by band, \
                     a maximum taking its whole band"
                ));
            }
        }
        let mut filter = Filter { min_rating, max_rating, ..Filter::default() };
        for r in results.into_iter().flat_map(|r| r.split(',')) {
            filter.results.push(parse_result(r).ok_or(format!("unknown result {r:?}"))?);
        }
        for s in speeds.into_iter().flat_map(|s| s.split(',')) {
            filter.speeds.push(s.trim().parse::<Speed>()?);
        }
        filter.since = since.map(parse_month).transpose()?;
        filter.until = until.map(parse_month).transpose()?;
        Ok(filter)
    }

    /// A filter written as `name=value` terms separated by spaces, named as the tool's
    /// options are: `result=1-0,1/2-1/2 since=2021-10 until=2021-12 min_rating=1600
    /// max_rating=2000 speed=blitz,rapid` (`min-rating` and `max-rating` read too); the empty
    /// text is no filter. For callers that take one text, such as SQL's table functions.
    ///
    /// # Errors
    /// A message naming the first term that does not read, or an unknown or repeated name.
    pub fn from_terms(text: &str) -> Result<Filter, String> {
        let mut values: [Option<&str>; 6] = [None; 6];
        const NAMES: [&str; 6] = ["result", "since", "until", "min_rating", "max_rating", "speed"];
        for term in text.split_whitespace() {
            let (name, value) =
                term.split_once('=').ok_or(format!("{term:?} is not name=value"))?;
            let name = name.replace('-', "_");
            let slot = NAMES
                .iter()
                .position(|n| *n == name)
                .ok_or(format!("unknown filter {name:?} (one of {})", NAMES.join(", ")))?;
            if values[slot].replace(value).is_some() {
                return Err(format!("filter {name:?} given twice"));
            }
        }
        let rating = |v: Option<&str>| {
            v.map(|v| v.parse::<u16>().map_err(|_| format!("rating {v:?} is not a number")))
                .transpose()
        };
        let [result, since, until, min, max, speed] = values;
        Filter::from_text(result, (since, until), (rating(min)?, rating(max)?), speed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_from_text() {
        let f = Filter::from_text(
            Some("1-0, 1/2-1/2"),
            (Some("2021-10"), Some("2021-12")),
            (Some(1600), None),
            Some("blitz,rapid"),
        )
        .unwrap();
        assert_eq!(f.results, [1, 3]);
        assert_eq!((f.since, f.until), (Some(202110), Some(202112)));
        assert_eq!(f.speeds, [Speed::Blitz, Speed::Rapid]);
        assert!(Filter::from_text(Some("2-0"), (None, None), (None, None), None).is_err());
        assert!(Filter::from_text(None, (Some("2021-13"), None), (None, None), None).is_err());
        assert!(Filter::from_text(None, (None, None), (None, None), Some("fast")).is_err());
        let terms = Filter::from_terms(
            " result=1-0,1/2-1/2 since=2021-10  until=2021-12 min-rating=1600 speed=blitz,rapid",
        )
        .unwrap();
        assert_eq!(terms, f);
        assert_eq!(Filter::from_terms("").unwrap(), Filter::default());
        let off_band = Filter::from_text(None, (None, None), (Some(2300), None), None);
        insta::assert_snapshot!(off_band.unwrap_err(), @"min_rating 2300 is not a rating band (0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500): ratings count by band, a maximum taking its whole band");
        assert!(Filter::from_text(None, (None, None), (None, Some(1999)), None).is_err());
        assert!(Filter::from_text(None, (None, None), (Some(0), Some(2500)), None).is_ok());
        for bad in ["speed", "colour=white", "since=2021-10 since=2021-11", "max_rating=high"] {
            assert!(Filter::from_terms(bad).is_err(), "{bad}");
        }
        assert_eq!(format_date(20211031), "2021.10.31");
        assert_eq!(format_date(20210000), "2021.??.??");
        assert_eq!(format_date(0), "");
    }

    #[test]
    fn speeds_as_lichess_classes_them() {
        for (tc, speed) in [
            ("15+0", Speed::UltraBullet),
            ("60+0", Speed::Bullet),
            ("120+1", Speed::Bullet),
            ("180+0", Speed::Blitz),
            ("300+3", Speed::Blitz),
            ("600+0", Speed::Rapid),
            ("900+10", Speed::Rapid),
            ("1800+0", Speed::Classical),
            ("-", Speed::Correspondence),
            ("?", Speed::Unknown),
            ("", Speed::Unknown),
            // Fractions of a second, as cutechess and fastchess write them: 216 s and 12 s.
            ("154.283+1.543", Speed::Blitz),
            ("10+0.05", Speed::UltraBullet),
            ("29.999", Speed::UltraBullet),
            ("30.0", Speed::Bullet),
            (".5+1", Speed::Bullet),
            // The PGN standard's forms: moves/seconds periods, the first one read; sandclock.
            ("40/5400+30:1800+30", Speed::Classical),
            ("40/7200", Speed::Classical),
            ("*180", Speed::Blitz),
            // Not seconds.
            ("1e3", Speed::Unknown),
            ("+5", Speed::Unknown),
            ("300+", Speed::Unknown),
            ("3.0.0", Speed::Unknown),
            ("inf", Speed::Unknown),
            (".", Speed::Unknown),
        ] {
            assert_eq!(Speed::of_time_control(tc.as_bytes()), speed, "{tc}");
        }
        for speed in Speed::ALL {
            assert_eq!(speed.name().parse::<Speed>(), Ok(speed));
            assert_eq!(Speed::from_code(speed as u8), Some(speed));
        }
    }

    #[test]
    fn dates_months_and_bands() {
        assert_eq!(parse_date(b"2021.10.31"), 20211031);
        assert_eq!(parse_date(b"2021.??.??"), 20210000);
        assert_eq!(parse_date(b"????.??.??"), 0);
        assert_eq!(parse_date(b"2021.13.01"), 20210001);
        assert_eq!(parse_date(b"2022.13.45"), 20220000);
        assert_eq!(parse_date(b"2021.1.5"), 20210105);
        assert_eq!(parse_date(b"2021"), 20210000);
        // Not a PGN date: unknown, not the year 21 (or 2021 read from the wrong field).
        assert_eq!(parse_date(b"21.10.2021"), 0);
        assert_eq!(parse_date(b"2021-10-31"), 0);
        assert_eq!(parse_date(b"02021.10.31"), 0);
        assert_eq!(parse_date(b"2021.10.31.5"), 0);
        assert_eq!(parse_date(b"+021.10.31"), 0);
        assert_eq!(parse_date(b"2021.010.31"), 0);
        let facts =
            GameFacts { date: 20211031, white_elo: 1500, black_elo: 1700, ..GameFacts::default() };
        assert_eq!(facts.month(), 2021 * 12 + 9);
        assert_eq!(facts.average_rating(), Some(1600));
        assert_eq!(facts.band(), 4);
        assert_eq!(
            (rating_band(0), rating_band(999), rating_band(1000), rating_band(3000)),
            (0, 0, 1, 8)
        );
        let unrated = GameFacts { white_elo: 1500, ..GameFacts::default() };
        assert_eq!(unrated.band(), u8::MAX);
        assert_eq!(unrated.month(), 0);
    }

    #[test]
    fn filters_at_month_and_band_granularity() {
        let facts = GameFacts {
            result: 1,
            speed: Speed::Blitz as u8,
            date: 20211031,
            white_elo: 1550,
            black_elo: 1650,
        };
        let pass = |filter: Filter| filter.passes(&facts);
        assert!(pass(Filter::default()));
        assert!(pass(Filter { results: vec![1, 3], ..Filter::default() }));
        assert!(!pass(Filter { results: vec![2], ..Filter::default() }));
        assert!(pass(Filter { since: Some(202110), until: Some(202110), ..Filter::default() }));
        assert!(!pass(Filter { since: Some(202111), ..Filter::default() }));
        assert!(!pass(Filter { until: Some(202109), ..Filter::default() }));
        // 1600 is in the band 1600-1799: bounds count whole bands.
        assert!(pass(Filter {
            min_rating: Some(1750),
            max_rating: Some(1610),
            ..Filter::default()
        }));
        assert!(!pass(Filter { min_rating: Some(1800), ..Filter::default() }));
        assert!(!pass(Filter { max_rating: Some(1599), ..Filter::default() }));
        assert!(pass(Filter { speeds: vec![Speed::Blitz], ..Filter::default() }));
        assert!(!pass(Filter { speeds: vec![Speed::Bullet], ..Filter::default() }));
    }
}
