//! The campaigns as CSV, for the people who keep them in spreadsheets: GET
//! /admin/campaigns.csv (every campaign, ended ones too, with its id), and POST
//! /admin/campaigns/import (a CSV of changes pasted in: first a preview of what each line
//! would do, nothing written; then, with `confirm`, all of it in one transaction). A line that
//! breaks a rule refuses the whole import with its line number, so nothing is half-applied.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::State;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};

use super::campaigns::{ImportView, render_import};
use super::csv::push_row;
use super::error::{ConsoleError, Doing};
use super::form::FormFields;
use super::screen::Routes;
use super::session::StaffSession;
use crate::campaigns::{check, name_clash, name_taken};
use crate::pages::admin::campaigns::ImportLine;
use crate::state::AppState;
use crate::store::{CampaignEdit, CampaignFields, CampaignRecord, CampaignSaved, campaign_changes};

pub fn routes() -> Routes {
    vec![
        (Method::GET, "/admin/campaigns.csv", get(export)),
        (Method::POST, "/admin/campaigns/import", post(import)),
    ]
}

/// The file's columns, in order; an import's first line names them.
pub const COLUMNS: [&str; 13] = [
    "id",
    "name",
    "status",
    "payout",
    "payment_terms",
    "geos",
    "promotion_note",
    "cap",
    "inbound",
    "transfer",
    "seconds",
    "hours",
    "notes",
];
/// The most lines an import takes.
const MAX_LINES: usize = 1000;
/// The most characters of CSV an import takes.
pub const MAX_CSV: usize = 500_000;

fn cells(r: &CampaignRecord) -> Vec<String> {
    let f = &r.fields;
    let flag = |b: bool| if b { "yes" } else { "no" }.to_string();
    vec![
        r.id.to_string(),
        f.name.clone(),
        f.status.clone(),
        f.payouts.clone(),
        f.payment_terms.clone(),
        f.geos.clone(),
        f.promo_allowed.clone().unwrap_or_default(),
        f.cap.clone(),
        flag(f.inbound),
        flag(f.transfer),
        f.seconds.to_string(),
        f.hours.clone(),
        f.notes.clone(),
    ]
}

/// GET /admin/campaigns.csv
pub async fn export(State(state): State<Arc<AppState>>, staff: StaffSession) -> Result<Response, ConsoleError> {
    let all = state.store.campaigns().await.doing("read the campaigns")?;
    let now = state.staff.clock.now_ms();
    let entry = staff.audit("export", Some("export:campaigns".into()), Some("all".into()));
    state.store.audit(entry, now).await.doing("write the audit log")?;
    let mut out = String::new();
    push_row(&mut out, &COLUMNS);
    for r in &all {
        push_row(&mut out, &cells(r));
    }
    let mut response = out.into_response();
    let h = response.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/csv; charset=utf-8"));
    h.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_static("attachment; filename=\"campaigns.csv\""),
    );
    Ok(response)
}

/// A CSV record and the line it starts on (from 1).
pub type Record = (usize, Vec<String>);
/// A line of an import: its number, the save it asks for, the fields it changes.
pub type Planned = (usize, CampaignEdit, Vec<&'static str>);

/// RFC 4180 records of `text`, each with the line it starts on (from 1); or the line where
/// a quoted cell never ends.
pub fn parse_csv(text: &str) -> Result<Vec<Record>, (usize, String)> {
    let mut records = Vec::new();
    let (mut record, mut cell) = (Vec::new(), String::new());
    let (mut line, mut start, mut quoted, mut any) = (1usize, 1usize, false, false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    cell.push('"');
                }
                '"' => quoted = false,
                '\n' => {
                    line += 1;
                    cell.push('\n');
                }
                '\r' => {}
                c => cell.push(c),
            }
            continue;
        }
        match c {
            '"' if cell.is_empty() => {
                quoted = true;
                any = true;
            }
            ',' => {
                record.push(std::mem::take(&mut cell));
                any = true;
            }
            '\r' => {}
            '\n' => {
                if any || !cell.is_empty() {
                    record.push(std::mem::take(&mut cell));
                    records.push((start, std::mem::take(&mut record)));
                }
                any = false;
                line += 1;
                start = line;
            }
            c => {
                cell.push(c);
                any = true;
            }
        }
    }
    if quoted {
        return Err((start, "a quoted cell is never closed".into()));
    }
    if any || !cell.is_empty() {
        record.push(cell);
        records.push((start, record));
    }
    Ok(records)
}

/// A cell as the export wrote it: the `'` that kept a formula-like cell text taken off.
fn unneutralised(cell: &str) -> String {
    let cell = cell.trim();
    match cell.strip_prefix('\'') {
        Some(rest) if rest.starts_with(['=', '+', '-', '@', '\t', '\r']) => rest.to_string(),
        _ => cell.to_string(),
    }
}

fn flag(cell: &str) -> Option<bool> {
    match cell.to_ascii_lowercase().as_str() {
        "yes" | "true" | "1" => Some(true),
        "no" | "false" | "0" | "" => Some(false),
        _ => None,
    }
}

/// What each line of an import would do, or the first line that breaks a rule.
pub fn plan(text: &str, stored: &[CampaignRecord]) -> Result<Vec<Planned>, String> {
    let records = parse_csv(text).map_err(|(line, why)| format!("Line {line}: {why}."))?;
    let mut records = records.into_iter();
    let Some((_, header)) = records.next() else {
        return Err("The CSV is empty: paste the exported file with your changes.".into());
    };
    let header: Vec<String> = header.iter().map(|c| c.trim().to_ascii_lowercase()).collect();
    if header != COLUMNS {
        return Err(format!(
            "Line 1: the columns must be {}, as the export writes them.",
            COLUMNS.join(",")
        ));
    }
    let by_id: HashMap<i64, &CampaignRecord> = stored.iter().map(|r| (r.id, r)).collect();
    let mut planned = Vec::new();
    let mut seen_ids = Vec::new();
    for (line, row) in records {
        if planned.len() >= MAX_LINES {
            return Err(format!("Line {line}: at most {MAX_LINES} campaigns in one import."));
        }
        if row.len() != COLUMNS.len() {
            return Err(format!("Line {line}: {} cells, where {} are needed.", row.len(), COLUMNS.len()));
        }
        let cell: Vec<String> = row.iter().map(|c| unneutralised(c)).collect();
        let id = match cell[0].as_str() {
            "" => None,
            typed => match typed.parse::<i64>().ok().filter(|id| by_id.contains_key(id)) {
                Some(id) => Some(id),
                None => {
                    return Err(format!(
                        "Line {line}: no campaign has the id {typed:?}; leave it empty to add a new one."
                    ));
                }
            },
        };
        if let Some(id) = id {
            if seen_ids.contains(&id) {
                return Err(format!("Line {line}: the campaign {id} is on an earlier line already."));
            }
            seen_ids.push(id);
        }
        let (Some(inbound), Some(transfer)) = (flag(&cell[8]), flag(&cell[9])) else {
            return Err(format!("Line {line}: Inbound and Transfer: yes or no."));
        };
        let Ok(seconds) = cell[10].parse::<i64>() else {
            return Err(format!("Line {line}: Call length: a whole number of seconds from 1 to 3600."));
        };
        let fields = CampaignFields {
            name: cell[1].clone(),
            status: cell[2].clone(),
            payouts: cell[3].clone(),
            payment_terms: cell[4].clone(),
            geos: cell[5].clone(),
            promo_allowed: (!cell[6].is_empty()).then(|| cell[6].clone()),
            cap: cell[7].clone(),
            inbound,
            transfer,
            seconds,
            hours: cell[11].clone(),
            notes: cell[12].replace("\r\n", "\n"),
        };
        check(&fields).map_err(|p| format!("Line {line}: {}", p.message))?;
        let old = id.and_then(|id| by_id.get(&id)).map(|r| &r.fields);
        if old.is_some_and(|o| o.status == "ended") && fields.status != "ended" {
            return Err(format!("Line {line}: the campaign {:?} has ended and stays ended.", fields.name));
        }
        let changed: Vec<&'static str> = campaign_changes(old, &fields).into_iter().map(|(f, _, _)| f).collect();
        planned.push((line, CampaignEdit { id, fields }, changed));
    }
    // The names after the whole import: every stored campaign with its line's values.
    let edited: HashMap<i64, &CampaignFields> = planned.iter().filter_map(|(_, e, _)| e.id.map(|id| (id, &e.fields))).collect();
    let after = stored
        .iter()
        .map(|r| *edited.get(&r.id).unwrap_or(&&r.fields))
        .chain(planned.iter().filter(|(_, e, _)| e.id.is_none()).map(|(_, e, _)| &e.fields));
    if let Some(name) = name_clash(after) {
        let line = planned
            .iter()
            .rev()
            .find(|(_, e, _)| e.fields.name == name)
            .map_or(1, |(line, _, _)| *line);
        return Err(format!("Line {line}: {}", name_taken(&name)));
    }
    Ok(planned)
}

/// POST /admin/campaigns/import: `csv`, and `confirm` once the preview was seen.
pub async fn import(State(state): State<Arc<AppState>>, staff: StaffSession, form: FormFields) -> Result<Response, ConsoleError> {
    let text: String = form.get("csv").chars().take(MAX_CSV + 1).collect();
    let stored = state.store.campaigns().await.doing("read the campaigns")?;
    let view = |error: Option<String>, lines: Vec<ImportLine>| ImportView {
        text: text.clone(),
        error,
        lines,
    };
    if text.chars().count() > MAX_CSV {
        let error = format!("The CSV is longer than {MAX_CSV} characters: import it in parts.");
        return render_import(&state, &staff, view(Some(error), Vec::new()), StatusCode::BAD_REQUEST).await;
    }
    let planned = match plan(&text, &stored) {
        Ok(planned) => planned,
        Err(error) => return render_import(&state, &staff, view(Some(error), Vec::new()), StatusCode::BAD_REQUEST).await,
    };
    if form.get("confirm") != "yes" {
        let lines = planned
            .iter()
            .map(|(line, edit, changed)| ImportLine {
                line: *line as i64,
                name: edit.fields.name.clone(),
                what: match (edit.id, changed.is_empty()) {
                    (None, _) => "Added".into(),
                    (Some(_), true) => "Unchanged".into(),
                    (Some(_), false) => format!("Changed: {}", changed.join(", ")),
                },
            })
            .collect();
        return render_import(&state, &staff, view(None, lines), StatusCode::OK).await;
    }
    let edits: Vec<CampaignEdit> = planned
        .iter()
        .filter(|(_, e, c)| e.id.is_none() || !c.is_empty())
        .map(|(_, e, _)| e.clone())
        .collect();
    let audit = planned
        .iter()
        .filter(|(_, e, c)| e.id.is_none() || !c.is_empty())
        .map(|(_, e, c)| staff.audit("campaign-import", e.id.map(|id| id.to_string()), Some(c.join(", "))))
        .collect();
    let now = state.staff.clock.now_ms();
    match state
        .store
        .save_campaigns(&edits, staff.staff_id, audit, now)
        .await
        .doing("save the campaigns")?
    {
        CampaignSaved::Saved(_) => {}
        CampaignSaved::NameTaken(name) => {
            return render_import(&state, &staff, view(Some(name_taken(&name)), Vec::new()), StatusCode::BAD_REQUEST).await;
        }
        CampaignSaved::Unknown(id) => {
            let error = format!("No campaign has the id {id} any more: export again and redo the changes.");
            return render_import(&state, &staff, view(Some(error), Vec::new()), StatusCode::BAD_REQUEST).await;
        }
    }
    if let Err(e) = state.refresh_campaigns().await {
        tracing::error!(error = %e, "the campaigns are saved, but this server's pages could not be rebuilt");
    }
    Ok(Redirect::to(&format!("/admin/campaigns?done=imported&count={}", edits.len())).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_records_keep_their_line_numbers_quotes_and_line_breaks() {
        let text = "a,b\r\n\"x, \"\"y\"\"\",\"two\nlines\"\n\nlast,\n";
        let records = parse_csv(text).expect("parsed");
        assert_eq!(
            records,
            vec![
                (1, vec!["a".to_string(), "b".to_string()]),
                (2, vec!["x, \"y\"".to_string(), "two\nlines".to_string()]),
                (5, vec!["last".to_string(), String::new()]),
            ]
        );
        assert_eq!(parse_csv("a\n\"open").map_err(|(line, _)| line), Err(2));
    }
}
