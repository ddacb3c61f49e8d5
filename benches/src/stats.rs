//! Order statistics of timing samples.

/// The q-quantile (0 ≤ q ≤ 1) of sorted samples, by nearest rank.
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// The median of sorted samples (mean of the middle two for an even count).
pub fn median(sorted: &[f64]) -> f64 {
    match sorted.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

/// Spread between rounds in basis points: (max − min) / median of the round medians × 10⁴.
pub fn spread_bp(round_medians: &[f64]) -> f64 {
    let mut v: Vec<f64> = round_medians.iter().copied().filter(|x| x.is_finite()).collect();
    if v.len() < 2 {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    let m = median(&v);
    if m <= 0.0 { 0.0 } else { (v[v.len() - 1] - v[0]) / m * 10_000.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_and_median() {
        let v: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(median(&v), 50.5);
        assert_eq!(quantile(&v, 0.95), 95.0);
        assert_eq!(quantile(&v, 0.99), 99.0);
        assert_eq!(quantile(&v, 0.0), 1.0);
        assert_eq!(median(&[3.0]), 3.0);
        assert!(median(&[]).is_nan());
        assert!((spread_bp(&[100.0, 101.0, 102.0]) - 2.0 / 101.0 * 10_000.0).abs() < 1e-9);
        assert_eq!(spread_bp(&[5.0]), 0.0);
    }
}
