//! Maps byte offsets in the preprocessed text back to the user's `file:line:col`, using
//! the linemarkers (`# 12 "file.cu" 2 3`) that the preprocessor left in the text.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// A position in a source file, as a compiler prints it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Loc {
    /// The path as written in the linemarker.
    pub file: String,
    /// 1-based.
    pub line: u32,
    /// 1-based, in bytes.
    pub col: u32,
}

/// From one linemarker on: preprocessed line `pp_line` is line `line` of `file`.
#[derive(Clone, Debug)]
struct Segment {
    pp_line: u32,
    file: u32,
    line: u32,
    system: bool,
}

pub struct SourceMap {
    text: Arc<str>,
    /// Offsets of the start of each preprocessed line.
    line_starts: Vec<u32>,
    segments: Vec<Segment>,
    files: Vec<String>,
    /// Lines of files read from disk for `source_line` (`None`: unreadable).
    cache: Mutex<HashMap<String, Option<Arc<Vec<String>>>>>,
}

impl Clone for SourceMap {
    fn clone(&self) -> SourceMap {
        SourceMap {
            text: self.text.clone(),
            line_starts: self.line_starts.clone(),
            segments: self.segments.clone(),
            files: self.files.clone(),
            cache: Mutex::new(HashMap::new()),
        }
    }
}

impl std::fmt::Debug for SourceMap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SourceMap")
            .field("lines", &self.line_starts.len())
            .field("files", &self.files)
            .finish()
    }
}

/// Collects linemarkers while lexing.
#[derive(Default)]
pub struct SourceMapBuilder {
    /// (offset of the line the marker applies to, line, file, system)
    markers: Vec<(u32, u32, Option<String>, bool)>,
}

impl SourceMapBuilder {
    pub fn marker(&mut self, next_line_offset: u32, line: u32, file: Option<String>, system: bool) {
        self.markers.push((next_line_offset, line, file, system));
    }

    pub fn finish(self, text: &str) -> SourceMap {
        let mut line_starts = vec![0u32];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i as u32 + 1);
            }
        }
        let mut files: Vec<String> = Vec::new();
        let mut file_ids: HashMap<String, u32> = HashMap::new();
        let mut segments = Vec::with_capacity(self.markers.len());
        let mut current_file: Option<u32> = None;
        for (offset, line, file, system) in self.markers {
            let file_id = match file {
                Some(f) => {
                    let next = files.len() as u32;
                    let id = *file_ids.entry(f.clone()).or_insert(next);
                    if id == next {
                        files.push(f);
                    }
                    id
                }
                None => match current_file {
                    Some(id) => id,
                    None => {
                        files.push("<stdin>".to_string());
                        files.len() as u32 - 1
                    }
                },
            };
            current_file = Some(file_id);
            let pp_line = line_starts.partition_point(|&s| s <= offset) as u32 - 1;
            segments.push(Segment { pp_line, file: file_id, line, system });
        }
        SourceMap { text: text.into(), line_starts, segments, files, cache: Mutex::new(HashMap::new()) }
    }
}

impl SourceMap {
    /// Builds a map for `text` alone (scanning its linemarkers).
    pub fn new(text: &str) -> SourceMap {
        let mut b = SourceMapBuilder::default();
        crate::lex::lex(text, &mut b);
        b.finish(text)
    }

    /// The preprocessed text the map was built from.
    pub fn text(&self) -> &str {
        &self.text
    }

    fn pp_line(&self, offset: u32) -> usize {
        self.line_starts.partition_point(|&s| s <= offset).saturating_sub(1)
    }

    fn segment(&self, pp_line: usize) -> Option<&Segment> {
        let i = self.segments.partition_point(|s| s.pp_line as usize <= pp_line);
        if i == 0 {
            None
        } else {
            self.segments.get(i - 1)
        }
    }

    pub fn lookup(&self, offset: u32) -> Loc {
        let offset = offset.min(self.text.len() as u32);
        let pp_line = self.pp_line(offset);
        let col = offset - self.line_starts[pp_line] + 1;
        match self.segment(pp_line) {
            Some(seg) => Loc {
                file: self.files[seg.file as usize].clone(),
                line: seg.line + (pp_line as u32 - seg.pp_line),
                col,
            },
            None => Loc { file: "<stdin>".to_string(), line: pp_line as u32 + 1, col },
        }
    }

    /// Whether the offset lies in a system header (linemarker flag 3).
    pub fn is_system_header(&self, offset: u32) -> bool {
        self.segment(self.pp_line(offset)).is_some_and(|s| s.system)
    }

    /// The user's original line (read from disk, cached), or else the preprocessed line.
    pub fn source_line(&self, loc: &Loc) -> Option<String> {
        if let Some(line) = self.disk_line(loc) {
            return Some(line);
        }
        self.preprocessed_line(loc)
    }

    fn disk_line(&self, loc: &Loc) -> Option<String> {
        let lines = {
            let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            cache
                .entry(loc.file.clone())
                .or_insert_with(|| {
                    let bytes = std::fs::read(&loc.file).ok()?;
                    let text = String::from_utf8_lossy(&bytes);
                    Some(Arc::new(text.lines().map(str::to_string).collect()))
                })
                .clone()
        }?;
        lines.get((loc.line as usize).checked_sub(1)?).cloned()
    }

    /// The preprocessed line that the segments map to `loc`'s line (the last one, if
    /// several do).
    fn preprocessed_line(&self, loc: &Loc) -> Option<String> {
        let file_id = self.files.iter().position(|f| *f == loc.file);
        let mut found = None;
        if let Some(file_id) = file_id {
            for (k, seg) in self.segments.iter().enumerate() {
                if seg.file as usize != file_id || loc.line < seg.line {
                    continue;
                }
                let end = self.segments.get(k + 1).map_or(self.line_starts.len(), |s| s.pp_line as usize);
                let pp = seg.pp_line as usize + (loc.line - seg.line) as usize;
                if pp < end {
                    found = Some(pp);
                }
            }
        } else if self.segments.is_empty() && loc.file == "<stdin>" {
            found = (loc.line as usize).checked_sub(1);
        }
        let pp = found?;
        let lo = *self.line_starts.get(pp)? as usize;
        let hi = self.line_starts.get(pp + 1).map_or(self.text.len(), |&h| h as usize - 1);
        Some(self.text.get(lo..hi)?.trim_end_matches('\r').to_string())
    }
}
