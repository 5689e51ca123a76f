//! The support matrix: capability groups × clients, each cell a client's support cell for a
//! capability, else what a shared list reports of it (method `reported`), else unknown. A
//! client's own cell that is not `unknown` is shown before any self-report; the reports of a
//! cell are kept beside it either way.

use super::Ids;
use crate::config::SiteConfig;
use crate::model::{text, Content, SupportCell, Tally, SUPPORT_STATUSES};
use std::collections::HashMap;

/// One band of rows: a capability group and its capabilities, sorted by id.
#[derive(Debug, Clone)]
pub struct MatrixGroup {
    /// Index into `site.yaml`'s capability groups.
    pub group: usize,
    pub capabilities: Vec<usize>,
}

/// Which cell a matrix position shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shown {
    /// The client's own cell, by its position in the support map.
    Own(usize),
    /// A self-report, by its position in `content.reports`.
    Report(usize),
}

#[derive(Debug, Clone, Default)]
pub struct Matrix {
    pub groups: Vec<MatrixGroup>,
    /// Clients in column order (by title).
    pub clients: Vec<usize>,
    /// (client, capability) → the cell shown: the client's own, or a self-report.
    cells: HashMap<(usize, usize), Shown>,
    /// (client, capability) → the self-reports of it (positions in `content.reports`).
    reports: HashMap<(usize, usize), Vec<usize>>,
    /// Every (client, capability) some list reports, by client then capability position.
    pub reported: Vec<(usize, usize)>,
    /// Per client (by content index), how many capabilities have each status.
    pub tallies: Vec<Tally>,
}

impl Matrix {
    pub fn build(content: &Content, config: &SiteConfig, ids: &Ids) -> Matrix {
        let mut groups: Vec<MatrixGroup> = (0..config.capability_groups.len())
            .map(|group| MatrixGroup {
                group,
                capabilities: Vec::new(),
            })
            .collect();
        let mut by_id: Vec<usize> = (0..content.capabilities.len()).collect();
        by_id.sort_by_key(|&i| {
            super::doc_id(&content.capabilities[i].id, &content.capabilities[i].doc)
        });
        for cap in by_id {
            let group = text(&content.capabilities[cap].group);
            if let Some(g) = config.capability_groups.iter().position(|g| g.id == group) {
                groups[g].capabilities.push(cap);
            }
        }
        let mut clients: Vec<usize> = (0..content.clients.len()).collect();
        clients.sort_by_key(|&i| {
            let c = &content.clients[i];
            (
                text(&c.title).to_lowercase(),
                super::doc_id(&c.id, &c.doc).to_string(),
            )
        });
        let mut cells = HashMap::new();
        for (client, c) in content.clients.iter().enumerate() {
            for (cell, s) in c.support.iter().enumerate() {
                if let Some((cap, _)) = ids.capability(&s.capability.value) {
                    cells.entry((client, cap)).or_insert(Shown::Own(cell));
                }
            }
        }
        let mut reports: HashMap<(usize, usize), Vec<usize>> = HashMap::new();
        for (r, report) in content.reports.iter().enumerate() {
            let client = ids.client(&report.client.value);
            let cap = ids.capability(&report.cell.capability.value);
            if let (Some(client), Some((cap, _))) = (client, cap) {
                reports.entry((client, cap)).or_default().push(r);
            }
        }
        for (&key, list) in &reports {
            let own_known = match cells.get(&key) {
                Some(&Shown::Own(i)) => {
                    let status = text(&content.clients[key.0].support[i].status);
                    SUPPORT_STATUSES[..3].contains(&status)
                }
                _ => false,
            };
            if !own_known {
                cells.insert(key, Shown::Report(list[0]));
            }
        }
        let mut reported: Vec<(usize, usize)> = reports.keys().copied().collect();
        reported.sort_unstable();
        let mut matrix = Matrix {
            groups,
            clients,
            cells,
            reports,
            reported,
            tallies: Vec::new(),
        };
        matrix.tallies = (0..content.clients.len())
            .map(|client| matrix.tally(content, client))
            .collect();
        matrix
    }

    /// The support cell shown for `client` and `capability`: the client's own, else a
    /// self-report's, if either names it.
    pub fn cell<'a>(
        &self,
        content: &'a Content,
        client: usize,
        capability: usize,
    ) -> Option<&'a SupportCell> {
        self.cells
            .get(&(client, capability))
            .map(|&shown| match shown {
                Shown::Own(i) => &content.clients[client].support[i],
                Shown::Report(r) => &content.reports[r].cell,
            })
    }

    /// Whether the cell shown is a self-report.
    pub fn shows_report(&self, client: usize, capability: usize) -> bool {
        matches!(
            self.cells.get(&(client, capability)),
            Some(Shown::Report(_))
        )
    }

    /// The self-reports of `client` for `capability` (positions in `content.reports`).
    pub fn reports(&self, client: usize, capability: usize) -> &[usize] {
        self.reports
            .get(&(client, capability))
            .map_or(&[], Vec::as_slice)
    }

    /// The status shown for a cell: its status when it is a known one, else `unknown`.
    pub fn status(&self, content: &Content, client: usize, capability: usize) -> &'static str {
        let status = self
            .cell(content, client, capability)
            .map_or("unknown", |c| text(&c.status));
        SUPPORT_STATUSES
            .into_iter()
            .find(|s| *s == status)
            .unwrap_or("unknown")
    }

    /// Why the cell of `client` for `capability` is unknown: the cell's `reason`, else the
    /// client's `unknownReason`, else the first of `site.yaml`'s `unknownReasons` (a capability
    /// the support map does not name has not been researched). `None` when the cell is not
    /// unknown, or the site declares no reasons.
    pub fn reason<'a>(
        &self,
        content: &'a Content,
        config: &'a SiteConfig,
        client: usize,
        capability: usize,
    ) -> Option<&'a str> {
        if self.status(content, client, capability) != "unknown" {
            return None;
        }
        let given = |value: &'a Option<crate::model::Spanned<String>>| {
            Some(text(value).trim()).filter(|v| !v.is_empty())
        };
        let cell = self.cell(content, client, capability);
        (cell.and_then(|c| given(&c.reason)))
            .or_else(|| given(&content.clients[client].unknown_reason))
            .or_else(|| config.unknown_reasons.first().map(|r| r.id.as_str()))
    }

    fn tally(&self, content: &Content, client: usize) -> Tally {
        let mut tally: Tally = SUPPORT_STATUSES.iter().map(|s| (*s, 0)).collect();
        for group in &self.groups {
            for &cap in &group.capabilities {
                *tally.entry(self.status(content, client, cap)).or_default() += 1;
            }
        }
        tally
    }
}
