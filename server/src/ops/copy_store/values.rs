//! copy-store's values: one value of either database in the one canonical form both sides
//! are hashed in, the running count and hash of a table's rows, and a value as a parameter
//! of PostgreSQL's column type.
//!
//! One thing cannot arrive as it was: a NUL character in text, which SQLite holds and
//! PostgreSQL's text cannot (an older release stored one from a `utm_*` value such as
//! `%00`; the server now keeps no control characters in what it derives from a request,
//! `forms::derived_text`). Rather than stop the move on that row, copy-store removes the
//! NULs from the value on the way, as the server now does at intake, counts them per column
//! and prints them. Every other character, control or not, is copied as it is. The SQLite
//! side's hash is of the rows as copied, so the comparison still checks every value.

use sha2::{Digest, Sha256};
use tokio_postgres::types::{ToSql, Type};

/// One value, in the form both sides are hashed in.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Value {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

impl Value {
    fn feed(&self, h: &mut Sha256) {
        match self {
            Value::Null => h.update(b"N;"),
            Value::Int(i) => h.update(format!("I{i};").as_bytes()),
            Value::Real(f) => h.update(format!("R{f:?};").as_bytes()),
            Value::Text(s) => {
                h.update(format!("T{}:", s.len()).as_bytes());
                h.update(s.as_bytes());
            }
            Value::Blob(b) => {
                h.update(format!("B{}:", b.len()).as_bytes());
                h.update(b);
            }
        }
    }

    pub(super) fn from_sqlite(v: rusqlite::types::Value) -> Self {
        use rusqlite::types::Value as V;
        match v {
            V::Null => Value::Null,
            V::Integer(i) => Value::Int(i),
            V::Real(f) => Value::Real(f),
            V::Text(s) => Value::Text(s),
            V::Blob(b) => Value::Blob(b),
        }
    }
}

/// Removes the NUL characters of a text value, which PostgreSQL's text cannot hold: true
/// when there were any. Any other value stays as it is.
pub(super) fn clean_for_postgres(v: &mut Value) -> bool {
    match v {
        Value::Text(s) if s.contains('\0') => {
            s.retain(|c| c != '\0');
            true
        }
        _ => false,
    }
}

/// Row count and running hash of one side of one table.
#[derive(Default)]
pub(super) struct Tally {
    rows: u64,
    hash: Sha256,
}

impl Tally {
    pub(super) fn add(&mut self, row: &[Value]) {
        for v in row {
            v.feed(&mut self.hash);
        }
        self.hash.update(b"\n");
        self.rows += 1;
    }

    pub(super) fn finish(self) -> (u64, String) {
        let digest = self.hash.finalize();
        (self.rows, crate::hex::hex(&digest))
    }
}

pub(super) type Param = Box<dyn ToSql + Sync + Send>;

/// A SQLite value as a parameter of PostgreSQL's column type.
pub(super) fn param(v: &Value, ty: &Type, table: &str, column: &str) -> Result<Param, String> {
    let p: Param = match (v, ty) {
        (Value::Null, t) if *t == Type::INT8 => Box::new(None::<i64>),
        (Value::Null, t) if *t == Type::INT4 => Box::new(None::<i32>),
        (Value::Null, t) if *t == Type::BOOL => Box::new(None::<bool>),
        (Value::Null, t) if *t == Type::TEXT || *t == Type::VARCHAR => Box::new(None::<String>),
        (Value::Null, t) if *t == Type::FLOAT8 => Box::new(None::<f64>),
        (Value::Null, t) if *t == Type::BYTEA => Box::new(None::<Vec<u8>>),
        (Value::Int(i), t) if *t == Type::INT8 => Box::new(*i),
        (Value::Int(i), t) if *t == Type::INT4 => {
            Box::new(i32::try_from(*i).map_err(|_| format!("table {table} column {column}: {i} is too large"))?)
        }
        (Value::Int(i), t) if *t == Type::BOOL => Box::new(*i != 0),
        (Value::Int(i), t) if *t == Type::FLOAT8 => Box::new(*i as f64),
        (Value::Real(f), t) if *t == Type::FLOAT8 => Box::new(*f),
        (Value::Text(s), t) if *t == Type::TEXT || *t == Type::VARCHAR => Box::new(s.clone()),
        (Value::Blob(b), t) if *t == Type::BYTEA => Box::new(b.clone()),
        (v, t) => {
            return Err(format!(
                "table {table} column {column}: the SQLite value {v:?} cannot go into a PostgreSQL {t} column"
            ));
        }
    };
    Ok(p)
}

/// A PostgreSQL value in the canonical form (booleans as 0 and 1, as SQLite keeps them).
pub(super) fn pg_value(row: &tokio_postgres::Row, i: usize) -> Result<Value, String> {
    let ty = row.columns()[i].type_();
    let v = if *ty == Type::INT8 {
        row.try_get::<_, Option<i64>>(i).map(|v| v.map_or(Value::Null, Value::Int))
    } else if *ty == Type::INT4 {
        row.try_get::<_, Option<i32>>(i)
            .map(|v| v.map_or(Value::Null, |n| Value::Int(n.into())))
    } else if *ty == Type::INT2 {
        row.try_get::<_, Option<i16>>(i)
            .map(|v| v.map_or(Value::Null, |n| Value::Int(n.into())))
    } else if *ty == Type::BOOL {
        row.try_get::<_, Option<bool>>(i)
            .map(|v| v.map_or(Value::Null, |b| Value::Int(b.into())))
    } else if *ty == Type::TEXT || *ty == Type::VARCHAR {
        row.try_get::<_, Option<String>>(i).map(|v| v.map_or(Value::Null, Value::Text))
    } else if *ty == Type::FLOAT8 {
        row.try_get::<_, Option<f64>>(i).map(|v| v.map_or(Value::Null, Value::Real))
    } else if *ty == Type::BYTEA {
        row.try_get::<_, Option<Vec<u8>>>(i).map(|v| v.map_or(Value::Null, Value::Blob))
    } else {
        return Err(format!(
            "column {} has a type copy-store cannot compare ({ty})",
            row.columns()[i].name()
        ));
    };
    v.map_err(|e| e.to_string())
}
