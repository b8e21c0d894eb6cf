use super::*;

#[test]
fn bradley_terry_recovers_known_strengths() {
    // Scores equal to the model's own probabilities: p_i/(p_i+p_j) with p = 1, 2, 4, over many
    // games, so the one-game prior moves nothing visibly.
    let p = [1.0, 2.0, 4.0];
    let s: Vec<Vec<f64>> = (0..3).map(|i| (0..3).map(|j| p[i] / (p[i] + p[j])).collect()).collect();
    let bt = bradley_terry(&s, 1e7);
    let g = 2.0; // geometric mean of 1, 2, 4
    for i in 0..3 {
        assert!((bt[i].value - p[i] / g).abs() < 1e-5, "{bt:?}");
        assert!(bt[i].lo < bt[i].value && bt[i].value < bt[i].hi && bt[i].hi - bt[i].lo < 0.01, "{bt:?}");
    }
}

#[test]
fn bradley_terry_interval_matches_the_two_unit_closed_form() {
    // Two units, 1000 games, A scores 0.7: the MLE of θ_A − θ_B is logit(0.7), with variance
    // 1/(n p (1 − p)); strengths are exp(±d/2), so ln(hi/value) = z · se / 2. The prior (one
    // game each) shifts that by well under a tenth of the standard error.
    let s = vec![vec![0.5, 0.7], vec![0.3, 0.5]];
    let bt = bradley_terry(&s, 1000.0);
    let d = (0.7f64 / 0.3).ln();
    let se = (1.0 / (1000.0 * 0.7 * 0.3f64)).sqrt();
    assert!((bt[0].value.ln() - d / 2.0).abs() < 0.1 * se, "{bt:?}");
    let half = (bt[0].hi / bt[0].value).ln();
    assert!((half - z_for(CONFIDENCE) * se / 2.0).abs() < 0.02 * half, "{half} vs {}", z_for(CONFIDENCE) * se / 2.0);
}

#[test]
fn a_one_sided_unit_gets_a_finite_strength_and_interval() {
    // Unit 2 loses every game (like the Armored Truck in points-matched squads): clipping
    // the score used to pin it at an arbitrary value with a zero-width interval.
    let s = vec![vec![0.5, 0.6, 1.0], vec![0.4, 0.5, 1.0], vec![0.0, 0.0, 0.5]];
    let bt = bradley_terry(&s, 2000.0);
    let e = bt[2];
    assert!(e.value > 0.0 && e.lo > 0.0 && e.hi.is_finite(), "{e:?}");
    assert!(e.value < 0.01 * bt[0].value, "far weaker than the others: {bt:?}");
    assert!(e.hi / e.lo > 2.0, "a one-sided record leaves its strength poorly determined: {e:?}");
    // The measured units' ratio is unaffected by the prior: odds 0.6/0.4.
    assert!(((bt[0].value / bt[1].value).ln() - 1.5f64.ln()).abs() < 0.02, "{bt:?}");
}

#[test]
fn nash_of_rock_paper_scissors_is_uniform() {
    let s = vec![vec![0.5, 1.0, 0.0], vec![0.0, 0.5, 1.0], vec![1.0, 0.0, 0.5]];
    let (w, v) = nash_mix(&s);
    for x in &w {
        assert!((x - 1.0 / 3.0).abs() < 1e-9, "{w:?}");
    }
    assert!(v.abs() < 1e-9);
}

#[test]
fn bootstrap_intervals_collapse_without_noise_and_cover_the_point_with_it() {
    let s = vec![vec![0.5, 0.3, 0.6], vec![0.7, 0.5, 0.55], vec![0.4, 0.45, 0.5]];
    let (_, nash) = ratings(&s, &vec![vec![0.0; 3]; 3], 1000.0, 1);
    for e in &nash {
        assert!((e.hi - e.lo).abs() < 1e-9, "{e:?}");
    }
    let (bt, nash) = ratings(&s, &vec![vec![0.02; 3]; 3], 1000.0, 1);
    for e in bt.iter().chain(&nash) {
        assert!(e.lo <= e.value && e.value <= e.hi, "{e:?}");
    }
    assert!(bt[1].hi > bt[1].lo, "finite games widen the strength interval");
    assert_eq!(ratings(&s, &vec![vec![0.02; 3]; 3], 1000.0, 1), (bt, nash), "deterministic for a seed");
}

#[test]
fn nash_of_a_dominant_unit_is_pure() {
    // Unit 1 beats both others: the only equilibrium fields unit 1 alone.
    let s = vec![vec![0.5, 0.3, 0.6], vec![0.7, 0.5, 0.8], vec![0.4, 0.2, 0.5]];
    let (w, _) = nash_mix(&s);
    assert!((w[1] - 1.0).abs() < 1e-9, "{w:?}");
}

#[test]
fn rewriting_costs_keeps_everything_else() {
    let text = "# list\n[duel]\ncost = 3\n\n[[unit]]\nname = \"Riflemen\"\ncost = 15  # cheap\natk = 3\n\n[[unit]]\ncost = 35\nname = \"Snipers\"\n";
    let out = rewrite_costs(text, &[("Riflemen".into(), 20.0), ("snipers".into(), 42.5)]).unwrap();
    assert_eq!(
        out,
        "# list\n[duel]\ncost = 3\n\n[[unit]]\nname = \"Riflemen\"\ncost = 20 # cheap\natk = 3\n\n[[unit]]\ncost = 42.5\nname = \"Snipers\"\n"
    );
    assert!(rewrite_costs(text, &[("Tank".into(), 1.0)]).unwrap_err().contains("Tank"));
}

#[test]
fn snapping_rounds_to_the_step_and_never_to_zero() {
    assert_eq!(snap(37.4, 5.0), 35.0);
    assert_eq!(snap(37.6, 5.0), 40.0);
    assert_eq!(snap(1.0, 5.0), 5.0);
    assert_eq!(snap(2.3, 0.5), 2.5);
}
