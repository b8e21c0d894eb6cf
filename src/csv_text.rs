//! CSV text through the `csv` crate: every table the tool writes by hand (not through polars)
//! goes through [`CsvText`], so a unit named `Riflemen, Veteran`, `The "Old" Guard` or one
//! holding a line break stays one field (RFC 4180 quoting, only where a field needs it).
//!
//! Why not `format!` with commas: that wrote ten fields under a nine-column header the first
//! time a name held a comma (issue 45). Numbers are still formatted by the caller (`{:.4}`...),
//! so the files read the same as before. Any layer may use it (no analysis types).

/// A CSV table being written in memory: a header, then rows of the header's length.
pub struct CsvText {
    writer: csv::Writer<Vec<u8>>,
}

impl CsvText {
    /// A table with the columns `header`. Rows end in `\n`; fields are quoted only when they
    /// hold a comma, a quote or a line break.
    pub fn new<I, T>(header: I) -> Self
    where
        I: IntoIterator<Item = T>,
        T: AsRef<[u8]>,
    {
        let mut t = CsvText { writer: csv::WriterBuilder::new().from_writer(Vec::new()) };
        t.row(header);
        t
    }

    /// Adds one row. Panics if its length differs from the header's: that is a bug in the
    /// caller, never bad input.
    pub fn row<I, T>(&mut self, fields: I)
    where
        I: IntoIterator<Item = T>,
        T: AsRef<[u8]>,
    {
        self.writer.write_record(fields).expect("a CSV row has the header's number of fields");
    }

    /// The table as text.
    pub fn finish(self) -> String {
        let bytes = self.writer.into_inner().expect("writing to memory cannot fail");
        String::from_utf8(bytes).expect("CSV fields are UTF-8 strings")
    }
}

#[cfg(test)]
mod tests {
    use super::CsvText;

    /// Awkward fields round-trip through the csv reader, each row keeping the header's width,
    /// and plain fields are written bare (the shipped reports' files stay as they were).
    #[test]
    fn awkward_fields_round_trip_and_plain_ones_stay_bare() {
        let rows = [
            ["Riflemen, Veteran", "15", "0.5000"],
            ["The \"Old\" Guard", "20", ""],
            ["Two\nLines", "7.5", "x"],
            ["Riflemen", "15", "0.1234"],
        ];
        let mut t = CsvText::new(["name", "cost", "value"]);
        for r in &rows {
            t.row(r);
        }
        let text = t.finish();
        assert!(text.starts_with("name,cost,value\n"), "{text}");
        assert!(text.ends_with("\nRiflemen,15,0.1234\n"), "{text}");
        assert!(text.contains("\"Riflemen, Veteran\",15,0.5000\n"), "{text}");
        assert!(text.contains("\"The \"\"Old\"\" Guard\",20,\n"), "{text}");
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let read: Vec<Vec<String>> = reader.records().map(|r| r.unwrap().iter().map(String::from).collect()).collect();
        let want: Vec<Vec<String>> = rows.iter().map(|r| r.iter().map(|s| s.to_string()).collect()).collect();
        assert_eq!(read, want);
    }
}
