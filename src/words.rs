//! Counts with their nouns, the noun in the singular for one: `1 card`, `2 cards`, `1 reply`,
//! `3 replies`. Every count take5 prints with a noun goes through here.

use std::fmt::Display;

/// `n` and `noun` (given in the singular), which takes an `s` unless `n` is 1 or -1.
pub fn count<N: Display + TryInto<i128> + Copy>(n: N, noun: &str) -> String {
    count_as(n, noun, &format!("{noun}s"))
}

/// `n` and `one` when `n` is 1 or -1, else `n` and `many`: for nouns whose plural is not an
/// added `s` (`reply`, `replies`).
pub fn count_as<N: Display + TryInto<i128> + Copy>(n: N, one: &str, many: &str) -> String {
    let single = n.try_into().is_ok_and(|n: i128| n.abs() == 1);
    format!("{n} {}", if single { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(count(1usize, "card"), "1 card");
        assert_eq!(count(0u64, "card"), "0 cards");
        assert_eq!(count(-1i32, "point"), "-1 point");
        assert_eq!(count(2i32, "point"), "2 points");
        assert_eq!(count_as(1u32, "reply", "replies"), "1 reply");
        assert_eq!(count_as(3u32, "reply", "replies"), "3 replies");
    }
}
