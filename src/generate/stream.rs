//! Tours written as they are found, in a text format: an `--all` run that finds millions of
//! tours holds none of them, only the writer's buffer.

use std::io::{self, Write};

use crate::output::format::Format;
use crate::output::grids::{write_csv, write_text};
use crate::output::json::TourJson;
use crate::output::write_budget::{Work, WriteBudget};
use crate::tour::Tour;

/// A text output receiving tours one at a time.
///
/// ```
/// use knights_tour::generate::stream::TourStream;
/// use knights_tour::output::format::Format;
/// use knights_tour::board::{Board, Square};
/// use knights_tour::tour::Tour;
/// let board = Board::new(3, 4).unwrap();
/// let tour = Tour::from_squares(board, [Square::new(2, 0), Square::new(0, 1)]).unwrap();
/// let mut out = Vec::new();
/// let budget = knights_tour::output::write_budget::WriteBudget::unlimited();
/// let mut s = TourStream::new(Format::Json, &mut out, Some(7), false, &budget);
/// s.tour(&tour).unwrap();
/// s.tour(&tour).unwrap();
/// assert_eq!(s.finish().unwrap(), 2);
/// let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
/// assert_eq!(v.as_array().unwrap().len(), 2);
/// assert_eq!(v[1]["seed"], 7);
/// ```
pub struct TourStream<'w> {
    format: Format,
    out: &'w mut dyn Write,
    budget: &'w WriteBudget<'w>,
    seed: Option<u64>,
    single: bool,
    written: usize,
    farthest_failure: Option<Tour>,
}

impl<'w> TourStream<'w> {
    /// A stream in `format` (not xlsx) to `out`, each JSON tour naming `seed` (none when the
    /// run made no random choice). `single`: one tour is asked for, so JSON is one object
    /// rather than a list. Each tour is a stage of `budget` (see [`crate::output::write_budget`]).
    pub fn new(
        format: Format,
        out: &'w mut dyn Write,
        seed: Option<u64>,
        single: bool,
        budget: &'w WriteBudget<'w>,
    ) -> Self {
        debug_assert!(format.is_text());
        TourStream {
            format,
            out,
            budget,
            seed,
            single,
            written: 0,
            farthest_failure: None,
        }
    }

    /// Tours written so far.
    pub fn written(&self) -> usize {
        self.written
    }

    /// Write a tour meeting the request.
    pub fn tour(&mut self, tour: &Tour) -> io::Result<()> {
        self.write(tour)?;
        self.written += 1;
        Ok(())
    }

    /// A failed attempt: kept (if it got farthest) to be shown when no tour is found.
    pub fn failed(&mut self, tour: &Tour) {
        if self
            .farthest_failure
            .as_ref()
            .is_none_or(|t| t.len() < tour.len())
        {
            self.farthest_failure = Some(tour.clone());
        }
    }

    /// Finish the output (the farthest failed attempt if no tour was found, the JSON list's
    /// end) and give the number of tours written.
    pub fn finish(mut self) -> io::Result<usize> {
        let mut anything = self.written > 0;
        if !anything {
            if let Some(t) = self.farthest_failure.take() {
                self.write(&t)?;
                anything = true;
            }
        }
        if self.format == Format::Json && !self.single {
            if !anything {
                self.out.write_all(b"[")?;
            }
            self.out.write_all(b"]\n")?;
        }
        self.out.flush()?;
        Ok(self.written)
    }

    fn write(&mut self, tour: &Tour) -> io::Result<()> {
        let first = self.written == 0;
        match self.format {
            Format::Json => {
                if !self.single {
                    self.out.write_all(if first { b"[" } else { b"," })?;
                }
                let _stage = self
                    .budget
                    .stage(Work::Bytes, TourJson::estimated_len(tour));
                let doc = match self.seed {
                    Some(seed) => TourJson::new(tour).with_seed(seed),
                    None => TourJson::new(tour),
                };
                serde_json::to_writer(&mut *self.out, &doc)?;
                if self.single {
                    self.out.write_all(b"\n")?;
                }
                Ok(())
            }
            Format::Csv | Format::Text => {
                if !first {
                    self.out.write_all(b"\n")?;
                }
                let numbering = tour.numbering();
                if self.format == Format::Csv {
                    write_csv(tour.board(), &numbering, self.out, self.budget)
                } else {
                    write_text(tour.board(), &numbering, self.out, self.budget)
                }
            }
            Format::Xlsx => Err(io::Error::other("xlsx is not a text format")),
        }
    }
}
