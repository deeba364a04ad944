//! A geometry's cells, peers and units as flat index tables, for the bitset
//! searches on grids of side up to 64 (one machine word of candidates a cell).

use crate::model::geometry::Geometry;

/// The widest grid whose candidates fit one `u64` a cell.
pub(crate) const WORD_SIZE: usize = 64;

/// The peers and the units of each cell of a geometry, as flat `u32` indices.
#[derive(Clone, Debug)]
pub(crate) struct Peers {
    /// Every value's bit.
    full: u64,
    /// The peers of cell c are `peers[peer_start[c]..peer_start[c + 1]]`:
    /// every other cell of its units, each once.
    peer_start: Vec<u32>,
    peers: Vec<u32>,
    unit_count: usize,
    /// The units of cell c are `cell_units[unit_start[c]..unit_start[c + 1]]`.
    unit_start: Vec<u32>,
    cell_units: Vec<u32>,
}

impl Peers {
    /// The tables of `geometry`, or `None` past [`WORD_SIZE`].
    pub(crate) fn new(geometry: &Geometry) -> Option<Peers> {
        let n = geometry.size();
        if n > WORD_SIZE {
            return None;
        }
        let mut peer_start = Vec::with_capacity(geometry.cell_count() + 1);
        peer_start.push(0);
        let mut peers = Vec::new();
        let mut mark = vec![false; geometry.cell_count()];
        for cell in geometry.cells() {
            let first = peers.len();
            for &u in geometry.units_of(cell) {
                for &p in geometry.units()[u as usize].cells() {
                    if p != cell && !mark[p.index()] {
                        mark[p.index()] = true;
                        peers.push(p.index() as u32);
                    }
                }
            }
            for &p in &peers[first..] {
                mark[p as usize] = false;
            }
            peer_start.push(peers.len() as u32);
        }
        let mut unit_start = vec![0];
        let mut cell_units = Vec::new();
        for cell in geometry.cells() {
            cell_units.extend_from_slice(geometry.units_of(cell));
            unit_start.push(cell_units.len() as u32);
        }
        let full = if n == WORD_SIZE { u64::MAX } else { (1u64 << n) - 1 };
        Some(Peers { full, peer_start, peers, unit_count: geometry.units().len(), unit_start, cell_units })
    }

    /// Every value's bit.
    pub(crate) fn full(&self) -> u64 {
        self.full
    }

    /// The other cells of `cell`'s units, each once.
    #[inline]
    pub(crate) fn of(&self, cell: u32) -> &[u32] {
        let c = cell as usize;
        &self.peers[self.peer_start[c] as usize..self.peer_start[c + 1] as usize]
    }

    /// The number of units.
    pub(crate) fn unit_count(&self) -> usize {
        self.unit_count
    }

    /// The units `cell` is in.
    #[inline]
    pub(crate) fn units_of(&self, cell: u32) -> &[u32] {
        let c = cell as usize;
        &self.cell_units[self.unit_start[c] as usize..self.unit_start[c + 1] as usize]
    }
}
