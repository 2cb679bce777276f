//! Exact rational numbers (`i64` over `i64`, always reduced, denominator positive).
//! Arithmetic is checked: an overflow is `None`, and the caller says it can't compute.

use std::cmp::Ordering;
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Q {
    n: i64,
    d: i64,
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Q {
    pub const ZERO: Q = Q { n: 0, d: 1 };
    pub const ONE: Q = Q { n: 1, d: 1 };
    pub const MINUS_ONE: Q = Q { n: -1, d: 1 };
    pub const HALF: Q = Q { n: 1, d: 2 };

    pub fn int(n: i64) -> Q {
        Q { n, d: 1 }
    }

    /// `n / d`, reduced; `None` for a zero denominator or an overflow.
    pub fn new(n: i128, d: i128) -> Option<Q> {
        if d == 0 {
            return None;
        }
        let g = gcd(n, d).max(1);
        let (mut n, mut d) = (n / g, d / g);
        if d < 0 {
            (n, d) = (-n, -d);
        }
        Some(Q { n: i64::try_from(n).ok()?, d: i64::try_from(d).ok()? })
    }

    pub fn numer(self) -> i64 {
        self.n
    }
    pub fn denom(self) -> i64 {
        self.d
    }
    pub fn is_int(self) -> bool {
        self.d == 1
    }
    pub fn is_zero(self) -> bool {
        self.n == 0
    }
    pub fn is_negative(self) -> bool {
        self.n < 0
    }
    pub fn to_f64(self) -> f64 {
        self.n as f64 / self.d as f64
    }

    pub fn checked_add(self, o: Q) -> Option<Q> {
        Q::new(self.n as i128 * o.d as i128 + o.n as i128 * self.d as i128, self.d as i128 * o.d as i128)
    }
    pub fn checked_sub(self, o: Q) -> Option<Q> {
        self.checked_add(o.negated())
    }
    pub fn checked_mul(self, o: Q) -> Option<Q> {
        Q::new(self.n as i128 * o.n as i128, self.d as i128 * o.d as i128)
    }
    pub fn checked_div(self, o: Q) -> Option<Q> {
        Q::new(self.n as i128 * o.d as i128, self.d as i128 * o.n as i128)
    }
    pub fn negated(self) -> Q {
        Q { n: -self.n, d: self.d }
    }
    pub fn abs(self) -> Q {
        Q { n: self.n.abs(), d: self.d }
    }

    /// `self^k` for a small integer `k` (|k| ≤ 64); `None` on overflow or `0^negative`.
    pub fn powi(self, k: i64) -> Option<Q> {
        if k.abs() > 64 {
            return None;
        }
        let mut r = Q::ONE;
        for _ in 0..k.abs() {
            r = r.checked_mul(self)?;
        }
        if k < 0 { Q::ONE.checked_div(r) } else { Some(r) }
    }

    /// `self^k` for a rational `k` when the result is rational (`4^(3/2) = 8`).
    pub fn pow_exact(self, k: Q) -> Option<Q> {
        if k.d == 1 {
            return self.powi(k.n);
        }
        if self.n < 0 || k.d > 12 {
            return None;
        }
        let root = |v: i64| -> Option<i64> {
            let r = (v as f64).powf(1.0 / k.d as f64).round() as i64;
            (r.checked_pow(k.d as u32)? == v).then_some(r)
        };
        Q::new(root(self.n)? as i128, root(self.d)? as i128)?.powi(k.n)
    }

    /// A decimal like `0.25` or `3`, exactly.
    pub fn parse_decimal(s: &str) -> Option<Q> {
        let (int, frac) = s.split_once('.').unwrap_or((s, ""));
        if frac.len() > 12 || int.len() > 15 || (int.is_empty() && frac.is_empty()) {
            return None;
        }
        let digits = format!("{int}{frac}");
        let n: i128 = digits.parse().ok()?;
        Q::new(n, 10i128.pow(frac.len() as u32))
    }
}

impl PartialOrd for Q {
    fn partial_cmp(&self, o: &Q) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Q {
    fn cmp(&self, o: &Q) -> Ordering {
        (self.n as i128 * o.d as i128).cmp(&(o.n as i128 * self.d as i128))
    }
}

impl fmt::Display for Q {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.d == 1 { write!(f, "{}", self.n) } else { write!(f, "{}/{}", self.n, self.d) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_is_exact_and_reduced() {
        let third = Q::new(1, 3).unwrap();
        assert_eq!(third.checked_add(third).unwrap().checked_add(third).unwrap(), Q::ONE);
        assert_eq!(Q::parse_decimal("0.25").unwrap(), Q::new(1, 4).unwrap());
        assert_eq!(Q::new(4, -6).unwrap().to_string(), "-2/3");
        assert_eq!(Q::int(2).powi(-2).unwrap().to_string(), "1/4");
        assert!(Q::int(i64::MAX).checked_add(Q::ONE).is_none());
    }
}
