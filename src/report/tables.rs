//! Tables as polars DataFrames, serialised in memory to CSV and Parquet.
//!
//! Matrices are written in long format (one row per row-unit × column-unit pair) because
//! that is what spreadsheets, pandas and polars filter and pivot most easily; the Markdown
//! report shows the square form. Every estimate becomes three columns, `x`, `x_lo`, `x_hi`
//! (the 95% interval), so no number is separated from its uncertainty.

use polars::prelude::*;

use super::format;
use crate::analysis::{DistanceSweep, EfficiencyRow, Matrix, RulesetAnalysis};
use crate::sim::duel::MatchupResult;
use crate::stats::Estimate;

/// Columns `name`, `name_lo`, `name_hi` of an estimate taken from each item.
fn estimate_columns<T>(name: &str, items: &[T], get: impl Fn(&T) -> Estimate) -> [Column; 3] {
    let est: Vec<Estimate> = items.iter().map(get).collect();
    [
        Column::new(name.into(), est.iter().map(|e| e.value).collect::<Vec<f64>>()),
        Column::new(format!("{name}_lo").into(), est.iter().map(|e| e.lo).collect::<Vec<f64>>()),
        Column::new(format!("{name}_hi").into(), est.iter().map(|e| e.hi).collect::<Vec<f64>>()),
    ]
}

/// The same for an optional estimate; missing values are nulls.
fn optional_estimate_columns<T>(name: &str, items: &[T], get: impl Fn(&T) -> Option<Estimate>) -> [Column; 3] {
    let est: Vec<Option<Estimate>> = items.iter().map(get).collect();
    let col = |suffix: &str, f: fn(&Estimate) -> f64| {
        Column::new(
            format!("{name}{suffix}").into(),
            est.iter().map(|e| e.as_ref().map(f)).collect::<Vec<Option<f64>>>(),
        )
    };
    [col("", |e| e.value), col("_lo", |e| e.lo), col("_hi", |e| e.hi)]
}

/// One row per unit, best first: rank, id, name, kind, cost, efficiency, 1v1 mean score (`score_1v1`) and
/// points spent per enemy point destroyed (null when the unit destroyed nothing).
pub fn efficiency_frame(a: &RulesetAnalysis) -> PolarsResult<DataFrame> {
    let rows: &[EfficiencyRow] = &a.efficiency;
    let text =
        |name: &str, f: fn(&EfficiencyRow) -> &str| Column::new(name.into(), rows.iter().map(f).collect::<Vec<&str>>());
    let mut columns = vec![
        Column::new("rank".into(), rows.iter().map(|r| r.rank as u64).collect::<Vec<u64>>()),
        text("unit", |r| &r.unit.id),
        text("name", |r| &r.unit.name),
        text("kind", |r| &r.unit.kind),
        Column::new("cost".into(), rows.iter().map(|r| r.unit.cost).collect::<Vec<f64>>()),
    ];
    columns.extend(estimate_columns("efficiency", rows, |r| r.efficiency));
    columns.extend(estimate_columns("score_1v1", rows, |r| r.win_rate_1v1));
    columns.extend(optional_estimate_columns("points_per_point_killed", rows, |r| r.points_per_point_killed));
    DataFrame::new(rows.len(), columns)
}

/// Long format: one row per (row unit, column unit) cell of `m`.
pub fn matrix_frame(a: &RulesetAnalysis, m: &Matrix) -> PolarsResult<DataFrame> {
    let mut row_ids = Vec::new();
    let mut col_ids = Vec::new();
    let mut cells: Vec<&MatchupResult> = Vec::new();
    for (i, row) in m.cells.iter().enumerate() {
        for (j, cell) in row.iter().enumerate() {
            row_ids.push(m.units.get(i).map_or("?", String::as_str));
            col_ids.push(m.units.get(j).map_or("?", String::as_str));
            cells.push(cell);
        }
    }
    let names = |ids: &[&str]| ids.iter().map(|id| format::unit_name(a, id).to_string()).collect::<Vec<String>>();
    let float = |name: &str, f: fn(&MatchupResult) -> f64| {
        Column::new(name.into(), cells.iter().map(|c| f(c)).collect::<Vec<f64>>())
    };
    let mut columns = vec![
        Column::new("row_unit".into(), row_ids.clone()),
        Column::new("row_name".into(), names(&row_ids)),
        Column::new("col_unit".into(), col_ids.clone()),
        Column::new("col_name".into(), names(&col_ids)),
    ];
    columns.extend(estimate_columns("a_wins", &cells, |c| c.a_wins));
    columns.extend(estimate_columns("b_wins", &cells, |c| c.b_wins));
    columns.extend(estimate_columns("draws", &cells, |c| c.draws));
    columns.extend(estimate_columns("a_score", &cells, |c| c.a_score));
    columns.extend([
        float("a_score_se", |c| c.a_score_se),
        Column::new("trials".into(), cells.iter().map(|c| c.trials).collect::<Vec<u64>>()),
        Column::new("method".into(), cells.iter().map(|c| c.method.as_str()).collect::<Vec<&str>>()),
        Column::new("mean_turns".into(), cells.iter().map(|c| c.mean_turns).collect::<Vec<Option<f64>>>()),
        float("a_points_spent", |c| c.a_points_spent),
        float("a_points_killed", |c| c.a_points_killed),
        float("b_points_spent", |c| c.b_points_spent),
        float("b_points_killed", |c| c.b_points_killed),
    ]);
    DataFrame::new(cells.len(), columns)
}

/// Long format: one row per (unit, distance) of the sweep, units in the sweep's (cost-list)
/// order and distances ascending: unit id, name, cost (null for a unit the analysis does not
/// list), start distance and its unit, and the efficiency with its 95% interval.
pub fn distance_sweep_frame(a: &RulesetAnalysis, s: &DistanceSweep) -> PolarsResult<DataFrame> {
    let mut ids = Vec::new();
    let mut distances = Vec::new();
    let mut est = Vec::new();
    for (u, id) in s.units.iter().enumerate() {
        let row = s.efficiency.get(u).map_or(&[][..], Vec::as_slice);
        for (&d, e) in s.distances.iter().zip(row) {
            ids.push(id.as_str());
            distances.push(d);
            est.push(*e);
        }
    }
    let mut columns = vec![
        Column::new("unit".into(), ids.clone()),
        Column::new("name".into(), ids.iter().map(|id| format::unit_name(a, id)).collect::<Vec<&str>>()),
        Column::new(
            "cost".into(),
            ids.iter().map(|id| format::unit(a, id).map(|u| u.cost)).collect::<Vec<Option<f64>>>(),
        ),
        Column::new("distance".into(), distances),
        Column::new("distance_unit".into(), vec![a.distance_unit.as_str(); ids.len()]),
    ];
    columns.extend(estimate_columns("efficiency", &est, |e| *e));
    DataFrame::new(ids.len(), columns)
}

fn csv_bytes(mut df: DataFrame) -> PolarsResult<Vec<u8>> {
    let mut buf = Vec::new();
    CsvWriter::new(&mut buf).include_header(true).finish(&mut df)?;
    Ok(buf)
}

pub fn efficiency_csv(a: &RulesetAnalysis) -> anyhow::Result<Vec<u8>> {
    Ok(csv_bytes(efficiency_frame(a)?)?)
}

pub fn efficiency_parquet(a: &RulesetAnalysis) -> anyhow::Result<Vec<u8>> {
    let mut df = efficiency_frame(a)?;
    let mut buf = Vec::new();
    ParquetWriter::new(&mut buf).finish(&mut df)?;
    Ok(buf)
}

pub fn matrix_csv(a: &RulesetAnalysis, m: &Matrix) -> anyhow::Result<Vec<u8>> {
    Ok(csv_bytes(matrix_frame(a, m)?)?)
}

pub fn distance_sweep_csv(a: &RulesetAnalysis, s: &DistanceSweep) -> anyhow::Result<Vec<u8>> {
    Ok(csv_bytes(distance_sweep_frame(a, s)?)?)
}
