//! A lead's fields as `LEAD_FIELDS` declares them (server/src/store/lead_fields.rs), on both
//! stores: every field has its column, of its type, in both schemas, and every column of
//! `leads` is a field or the store's own; what a new lead holds is what each column gets;
//! and what a column holds comes back in the stored lead, in the console's list and in the
//! export. Each failure names the file to edit.

use crate::common;

use site_server::store::lead_fields::{BOOKKEEPING, LEAD_FIELDS, exported};
use site_server::store::{Channel, LeadFilter, now_ms};

use common::stores::{Raw, columns, execute, raw_stores, texts};

/// A column's type in the live schema as the migrations declare it: `TEXT` or `TEXT NOT NULL`.
async fn column_type(raw: &Raw, column: &str) -> Option<String> {
    let sql = match raw {
        Raw::Sqlite(_) => format!(
            "SELECT upper(type) || CASE WHEN \"notnull\" = 1 THEN ' NOT NULL' ELSE '' END FROM pragma_table_info('leads') WHERE name = '{column}'"
        ),
        Raw::Postgres { schema, .. } => format!(
            "SELECT upper(data_type) || CASE WHEN is_nullable = 'NO' THEN ' NOT NULL' ELSE '' END FROM information_schema.columns \
             WHERE table_schema = '{schema}' AND table_name = 'leads' AND column_name = '{column}'"
        ),
    };
    texts(raw, &sql).await.into_iter().next().flatten()
}

#[tokio::test]
async fn every_field_has_its_column_in_both_schemas_and_every_column_is_declared() {
    for (name, _store, raw) in raw_stores().await {
        for f in &LEAD_FIELDS {
            let found = column_type(&raw, f.column).await;
            assert_eq!(
                found.as_deref(),
                Some(f.sql_type),
                "{name}: leads.{} is declared {} in LEAD_FIELDS (server/src/store/lead_fields.rs) but the schema has {found:?}: \
                 write the migration in server/migrations/sqlite/ and server/migrations/postgres/ (the same number and name) \
                 and list it in server/src/store/migrations.rs",
                f.column,
                f.sql_type
            );
        }
        let undeclared: Vec<String> = columns(&raw)
            .await
            .into_iter()
            .filter(|(table, column)| {
                table == "leads" && LEAD_FIELDS.iter().all(|f| f.column != column) && BOOKKEEPING.iter().all(|(c, _)| c != column)
            })
            .map(|(_, column)| column)
            .collect();
        assert!(
            undeclared.is_empty(),
            "{name}: columns of leads that LEAD_FIELDS (server/src/store/lead_fields.rs) does not declare: {undeclared:?}"
        );
    }
}

#[tokio::test]
async fn every_field_is_stored_as_the_new_lead_holds_it_and_read_back_everywhere() {
    for (name, store, raw) in raw_stores().await {
        // Written through the store, as the intake writes (PostgreSQL's group insert).
        let mut lead = common::new_lead("+14125550177", "hvac");
        lead.certificate.cert_url = Some("https://cert.trustedform.com/abc".into());
        lead.context.page_url = Some("https://www.ringready.example/hvac?utm_source=x".into());
        lead.context.utm.source = Some("x".into());
        let id = store
            .submit_lead(lead.clone(), vec![Channel::Email], now_ms())
            .await
            .expect("lead")
            .id;
        for f in &LEAD_FIELDS {
            let stored = texts(&raw, &format!("SELECT {} FROM leads WHERE id = '{id}'", f.column)).await;
            assert_eq!(
                stored,
                [(f.new)(&lead).map(str::to_string)],
                "{name}: leads.{} does not hold what its `new` in LEAD_FIELDS (server/src/store/lead_fields.rs) reads from the NewLead",
                f.column
            );
        }

        // Every column given a value of its own, then read back by each reader.
        let value = |n: usize| format!("value {n}");
        for n in 0..LEAD_FIELDS.len() {
            // The wording a `consent_sha256` names must exist.
            execute(
                &raw,
                &format!(
                    "INSERT INTO consent_texts (sha256, text, first_seen_ms) VALUES ('{}', 'I agree.', 0)",
                    value(n)
                ),
            )
            .await;
        }
        for (n, f) in LEAD_FIELDS.iter().enumerate() {
            execute(&raw, &format!("UPDATE leads SET {} = '{}' WHERE id = '{id}'", f.column, value(n))).await;
        }
        let record = store.lead(&id).await.expect("read").expect("the lead");
        for (n, f) in LEAD_FIELDS.iter().enumerate() {
            assert_eq!(
                (f.get)(&record),
                Some(value(n).as_str()),
                "{name}: the stored lead's {} is not its column's value: its `set` and `get` in LEAD_FIELDS \
                 (server/src/store/lead_fields.rs) and the member of LeadRecord (server/src/store/leads.rs)",
                f.column
            );
        }
        let detail = store.lead_detail(&id).await.expect("read").expect("the lead");
        assert_eq!(detail.lead, record, "{name}: the console's lead page reads the same lead");
        let rows = store.list_leads(&LeadFilter::default(), 10).await.expect("list");
        let row = rows.iter().find(|r| r.id == id).expect("the row");
        for (n, f) in LEAD_FIELDS.iter().enumerate().filter(|(_, f)| f.export) {
            assert_eq!(
                row.field(f.column),
                Some(value(n).as_str()),
                "{name}: the leads list and the export do not read {}",
                f.column
            );
        }
        assert_eq!(row.fields.len(), exported().count(), "{name}");
    }
}
