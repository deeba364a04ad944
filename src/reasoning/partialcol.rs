//! List edge colouring of a bipartite graph by tabu search: the PartialCol
//! local search of Blöchliger and Zufferey ("A graph coloring heuristic
//! using partial solutions and a reactive tabu scheme", Computers &
//! Operations Research 35, 2008), on the line graph.
//!
//! Each edge takes one colour from its own list, and no two edges at a vertex
//! take the same one. A stack of a box layout, once each value's row in each
//! box is chosen, is this problem: rows and values are the vertices, the
//! stack's columns the colours ([`crate::reasoning::matchings`]).
//!
//! The search keeps a proper colouring of some of the edges and the rest
//! uncoloured. A move colours an uncoloured edge and uncolours the (at most
//! two) edges that had that colour at its ends; the move taken is the one
//! that leaves the fewest edges uncoloured, ties drawn at random. An edge
//! moved out of a colour may not take it back for a while (the tabu
//! tenure), unless that leaves fewer edges uncoloured than ever before.
//! Where many edges are uncoloured, only a few of them are weighed at each
//! step ([`SAMPLE`]).
//!
//! With givens fixing a tenth of a 144×144's cells, such a stack took
//! CaDiCaL up to 50 s, and CP-SAT more than 60 s; this search colours it in
//! milliseconds (the whole 144×144 is solved in 0.11 s).

use std::time::Instant;

use crate::rng::Rng;

/// A bipartite graph whose edges each list the colours they may take.
pub(crate) struct ListEdges {
    colours: usize,
    /// One more than the highest left and right vertex an edge has.
    lefts: usize,
    rights: usize,
    /// The (left, right) ends of each edge.
    ends: Vec<(u32, u32)>,
    /// Edge `e`'s colours are `allowed[starts[e]..starts[e + 1]]`.
    starts: Vec<usize>,
    allowed: Vec<u16>,
}

impl ListEdges {
    /// A graph with no edges yet, whose colours are `0..colours`.
    pub(crate) fn new(colours: usize) -> ListEdges {
        ListEdges { colours, lefts: 0, rights: 0, ends: Vec::new(), starts: vec![0], allowed: Vec::new() }
    }

    /// Add the edge `left`–`right`, which may take the colours `allowed`.
    pub(crate) fn push(&mut self, left: usize, right: usize, allowed: impl IntoIterator<Item = usize>) {
        self.ends.push((left as u32, right as u32));
        self.lefts = self.lefts.max(left + 1);
        self.rights = self.rights.max(right + 1);
        self.allowed.extend(allowed.into_iter().map(|colour| {
            debug_assert!(colour < self.colours);
            colour as u16
        }));
        self.starts.push(self.allowed.len());
    }

    fn allowed(&self, edge: usize) -> &[u16] {
        &self.allowed[self.starts[edge]..self.starts[edge + 1]]
    }
}

/// How many uncoloured edges' moves are weighed at each step, at most. Each
/// step costs the (edge, colour) pairs it looks at, and early on a Latin
/// square of 225 has some 550 uncoloured edges of about 200 colours each:
/// weighing them all, four such puzzles took 3.1–4.6 s, two running out of
/// the budget; weighing 8, 0.6 s. Box layouts of 196–256 sides took up to
/// about 2,200 pairs an edge, against 7,100.
const SAMPLE: usize = 8;

/// No edge (in the tables of who holds a colour at a vertex).
const NONE: u32 = u32::MAX;

/// A colour for every edge of `graph`, from its list, no two alike at a
/// vertex: indexed by edge. `None` when the search found none within
/// `budget` (moves weighed, each by the (edge, colour) pairs it looked at:
/// the search's time), or past the deadline. There may be none.
pub(crate) fn colour_edges(
    graph: &ListEdges,
    rng: &mut Rng,
    budget: u64,
    deadline: Option<Instant>,
) -> Option<Vec<u16>> {
    let (k, m) = (graph.colours, graph.ends.len());
    if (0..m).any(|e| graph.allowed(e).is_empty()) {
        return None;
    }
    let mut search = Search {
        graph,
        at_left: vec![NONE; graph.lefts * k],
        at_right: vec![NONE; graph.rights * k],
        colour: vec![u16::MAX; m],
        uncoloured: Vec::new(),
        place: vec![NONE; m],
    };
    // Greedy first: the edges with the shortest lists first, each a colour
    // free at both its ends, if it has one.
    let mut order: Vec<usize> = (0..m).collect();
    rng.shuffle(&mut order);
    order.sort_by_key(|&e| graph.allowed(e).len());
    let mut free = Vec::with_capacity(k);
    for e in order {
        free.clear();
        free.extend(graph.allowed(e).iter().copied().filter(|&c| search.holders(e, c) == (NONE, NONE)));
        match free.get(rng.below(free.len().max(1))) {
            Some(&c) => search.set(e, c),
            None => search.leave(e),
        }
    }
    // Then the tabu search.
    // The step until which each (edge, colour) is tabu.
    let mut tabu_until = vec![0u32; m * k];
    let mut best = search.uncoloured.len();
    let mut candidates = Vec::new();
    let mut work = 0u64;
    for step in 1..u32::MAX {
        if search.uncoloured.is_empty() {
            break;
        }
        if work > budget || step % 1024 == 0 && deadline.is_some_and(|deadline| Instant::now() >= deadline) {
            return None;
        }
        let mut best_change = i32::MAX;
        candidates.clear();
        // Past `SAMPLE` uncoloured edges, the moves of a random run of that
        // many are weighed.
        let left = search.uncoloured.len();
        let (start, weighed) = if left > SAMPLE { (rng.below(left), SAMPLE) } else { (0, left) };
        for i in 0..weighed {
            let e = search.uncoloured[(start + i) % left] as usize;
            work += graph.allowed(e).len() as u64;
            for &c in graph.allowed(e) {
                let (a, b) = search.holders(e, c);
                let change = (a != NONE) as i32 + (b != NONE && b != a) as i32 - 1;
                let record = (search.uncoloured.len() as i32 + change) < best as i32;
                if tabu_until[e * k + c as usize] > step && !record {
                    continue;
                }
                if change < best_change {
                    best_change = change;
                    candidates.clear();
                }
                if change == best_change {
                    candidates.push((e, c));
                }
            }
        }
        if candidates.is_empty() {
            continue;
        }
        let (e, c) = candidates[rng.below(candidates.len())];
        let (a, b) = search.holders(e, c);
        for f in [a, b] {
            if f != NONE && search.colour[f as usize] != u16::MAX {
                search.clear(f as usize);
                search.leave(f as usize);
                // A random few moves, and longer while many edges are
                // uncoloured (Blöchliger and Zufferey take 0.6 times as
                // many; the stacks of 196–256 sides went faster with 1).
                let tenure = rng.below(10) as u32 + search.uncoloured.len() as u32;
                tabu_until[f as usize * k + c as usize] = step.saturating_add(tenure);
            }
        }
        search.take(e);
        search.set(e, c);
        best = best.min(search.uncoloured.len());
    }
    search.uncoloured.is_empty().then_some(search.colour)
}

/// The search's state: a proper colouring of some edges.
struct Search<'a> {
    graph: &'a ListEdges,
    /// The edge holding each colour at each left vertex (`left * k + colour`).
    at_left: Vec<u32>,
    /// The same at each right vertex.
    at_right: Vec<u32>,
    /// Each edge's colour, `u16::MAX` while uncoloured.
    colour: Vec<u16>,
    /// The uncoloured edges, in no order.
    uncoloured: Vec<u32>,
    /// Each uncoloured edge's place in `uncoloured`.
    place: Vec<u32>,
}

impl Search<'_> {
    /// The edges holding colour `c` at edge `e`'s left and right ends.
    fn holders(&self, e: usize, c: u16) -> (u32, u32) {
        let k = self.graph.colours;
        let (l, r) = self.graph.ends[e];
        (self.at_left[l as usize * k + c as usize], self.at_right[r as usize * k + c as usize])
    }

    fn set(&mut self, e: usize, c: u16) {
        let k = self.graph.colours;
        let (l, r) = self.graph.ends[e];
        self.at_left[l as usize * k + c as usize] = e as u32;
        self.at_right[r as usize * k + c as usize] = e as u32;
        self.colour[e] = c;
    }

    fn clear(&mut self, e: usize) {
        let k = self.graph.colours;
        let (l, r) = self.graph.ends[e];
        let c = self.colour[e] as usize;
        self.at_left[l as usize * k + c] = NONE;
        self.at_right[r as usize * k + c] = NONE;
        self.colour[e] = u16::MAX;
    }

    /// Put uncoloured edge `e` in the uncoloured list.
    fn leave(&mut self, e: usize) {
        self.place[e] = self.uncoloured.len() as u32;
        self.uncoloured.push(e as u32);
    }

    /// Take edge `e` out of the uncoloured list.
    fn take(&mut self, e: usize) {
        let i = self.place[e] as usize;
        self.uncoloured.swap_remove(i);
        if let Some(&moved) = self.uncoloured.get(i) {
            self.place[moved as usize] = i as u32;
        }
        self.place[e] = NONE;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `colours` colour every edge of `graph` from its list, no two
    /// alike at a vertex: checked from the edges alone.
    fn proper(graph: &ListEdges, lefts: usize, rights: usize, colours: &[u16]) -> Result<(), String> {
        let k = graph.colours;
        let (mut at_left, mut at_right) = (vec![false; lefts * k], vec![false; rights * k]);
        for (e, &(l, r)) in graph.ends.iter().enumerate() {
            let c = colours[e] as usize;
            if !graph.allowed(e).contains(&colours[e]) {
                return Err(format!("edge {e} took colour {c}, not on its list"));
            }
            for (seen, at) in [(&mut at_left, l as usize), (&mut at_right, r as usize)] {
                if std::mem::replace(&mut seen[at * k + c], true) {
                    return Err(format!("colour {c} twice at a vertex of edge {e}"));
                }
            }
        }
        Ok(())
    }

    /// A random k-regular bipartite graph on n + n vertices with a proper
    /// k-colouring planted: the union of k random perfect matchings that
    /// share no edge, matching `i` coloured `i` (each drawn again until it
    /// misses the others).
    fn planted(n: usize, k: usize, rng: &mut Rng) -> Vec<(usize, usize, usize)> {
        let mut taken = vec![false; n * n];
        let mut edges = Vec::new();
        for colour in 0..k {
            let matching = loop {
                let mut rights: Vec<usize> = (0..n).collect();
                rng.shuffle(&mut rights);
                if rights.iter().enumerate().all(|(l, &r)| !taken[l * n + r]) {
                    break rights;
                }
            };
            for (l, r) in matching.into_iter().enumerate() {
                taken[l * n + r] = true;
                edges.push((l, r, colour));
            }
        }
        edges
    }

    /// Stacks as the construction meets them: a 6-regular bipartite graph on
    /// 120 + 120 vertices, a tenth of its edges precoloured (a list of one:
    /// their planted colour), the others allowed every colour not
    /// precoloured at either end. Coloured properly, the precoloured edges
    /// kept, on every seed.
    #[test]
    fn precoloured_regular_graphs_are_coloured() {
        let (n, k) = (120, 6);
        for seed in 1..=8 {
            let mut rng = Rng::new(seed);
            let edges = planted(n, k, &mut rng);
            let given: Vec<bool> = edges.iter().map(|_| rng.below(10) == 0).collect();
            let (mut used_left, mut used_right) = (vec![false; n * k], vec![false; n * k]);
            for (&(l, r, c), _) in edges.iter().zip(&given).filter(|(_, &g)| g) {
                used_left[l * k + c] = true;
                used_right[r * k + c] = true;
            }
            let mut graph = ListEdges::new(k);
            for (&(l, r, c), &g) in edges.iter().zip(&given) {
                if g {
                    graph.push(l, r, [c]);
                } else {
                    graph.push(l, r, (0..k).filter(|&d| !used_left[l * k + d] && !used_right[r * k + d]));
                }
            }
            let colours = colour_edges(&graph, &mut Rng::new(seed), 1 << 30, None)
                .unwrap_or_else(|| panic!("seed {seed}: not coloured"));
            proper(&graph, n, n, &colours).unwrap();
            for (e, &(_, _, c)) in edges.iter().enumerate().filter(|&(e, _)| given[e]) {
                assert_eq!(colours[e] as usize, c, "seed {seed}: precoloured edge {e} moved");
            }
        }
    }

    /// No colouring exists: a vertex whose three edges share two colours, or
    /// an edge with an empty list. The search gives up within its budget and
    /// claims none.
    #[test]
    fn no_colouring_is_claimed_where_there_is_none() {
        let mut graph = ListEdges::new(3);
        for right in 0..3 {
            graph.push(0, right, [0, 1]);
        }
        assert_eq!(colour_edges(&graph, &mut Rng::new(1), 100_000, None), None);
        let mut graph = ListEdges::new(2);
        graph.push(0, 0, [0, 1]);
        graph.push(1, 0, []);
        assert_eq!(colour_edges(&graph, &mut Rng::new(1), 100_000, None), None);
    }

    /// A past deadline stops the search before its budget.
    #[test]
    fn a_past_deadline_stops_the_search() {
        let mut graph = ListEdges::new(3);
        for right in 0..3 {
            graph.push(0, right, [0, 1]);
        }
        let deadline = Some(Instant::now());
        assert_eq!(colour_edges(&graph, &mut Rng::new(1), u64::MAX, deadline), None);
    }
}
