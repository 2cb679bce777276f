//! Ordinal numbers in words the tutor writes ("the 3rd derivative").

/// `1st`, `2nd`, `3rd`, `4th`, `11th`, `21st`.
pub(crate) fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn ordinals_take_their_suffix() {
        assert_eq!(
            [1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map(super::ordinal).join(" "),
            "1st 2nd 3rd 4th 11th 12th 13th 21st 22nd 101st"
        );
    }
}
