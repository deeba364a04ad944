//! Grid definition files (`--grid FILE`, the files in `encodings/`): TOML naming a size, a layout and extra units.
//!
//! ```toml
//! name = "X-sudoku"
//! size = 9
//! boxes = "3x3"          # or: latin = true, or: regions = """...""" (n rows of n labels)
//! variants = ["x"]       # "x" (both diagonals), "hyper" (windows)
//! extra_units = ["r1c1 r2c2 r3c3 ..."]   # any further units, as cell names
//! ```

use std::path::Path;

use serde::Deserialize;

use crate::error::{echo, GeometryError, GridFileError};
use crate::model::geometry::{default_box, Cell, Geometry, Layout, Variant};
use crate::text::notation::{parse_box_shape, parse_cell_name, parse_region_map};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GridFile {
    #[allow(dead_code)]
    name: Option<String>,
    #[allow(dead_code)]
    description: Option<String>,
    size: usize,
    boxes: Option<String>,
    #[serde(default)]
    latin: bool,
    regions: Option<String>,
    #[serde(default)]
    variants: Vec<String>,
    #[serde(default)]
    extra_units: Vec<String>,
}

/// Read a grid definition from the file at `path`.
pub fn load_grid_file(path: &Path) -> Result<Geometry, GridFileError> {
    let name = path.display().to_string();
    let text =
        std::fs::read_to_string(path).map_err(|e| GridFileError::Io { path: name.clone(), message: e.to_string() })?;
    parse_grid_file(&text, &name)
}

/// Read a grid definition from TOML text (`name` is used in messages).
pub fn parse_grid_file(text: &str, name: &str) -> Result<Geometry, GridFileError> {
    let syntax = |message: String| GridFileError::Syntax { path: name.to_string(), message };
    let file: GridFile = toml::from_str(text).map_err(|e| syntax(e.to_string().trim_end().replace('\n', " ")))?;
    let geometry_error = |error: GeometryError| GridFileError::Geometry { path: name.to_string(), error };
    let n = file.size;
    // Cell names are read against n: it must be a size first.
    if n == 0 || n > crate::model::geometry::MAX_SIZE {
        return Err(geometry_error(GeometryError::Size { n }));
    }
    let layout_count = [file.boxes.is_some(), file.latin, file.regions.is_some()].iter().filter(|&&b| b).count();
    if layout_count > 1 {
        return Err(syntax("give at most one of `boxes`, `latin` and `regions`".into()));
    }
    let layout = if let Some(shape) = &file.boxes {
        let (rows, cols) = parse_box_shape(shape)
            .ok_or_else(|| syntax(format!("boxes = \"{}\" is not of the form \"RxC\"", echo(shape))))?;
        Layout::Boxes { rows, cols }
    } else if file.latin {
        Layout::Latin
    } else if let Some(map) = &file.regions {
        Layout::Regions(parse_region_map(map))
    } else {
        let (rows, cols) = default_box(n).map_err(geometry_error)?;
        Layout::Boxes { rows, cols }
    };
    let variants = file
        .variants
        .iter()
        .map(|v| {
            v.parse::<Variant>()
                .map_err(|_| syntax(format!("unknown variant \"{}\" (expected \"x\" or \"hyper\")", echo(v))))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let extra = file
        .extra_units
        .iter()
        .enumerate()
        .map(|(i, unit)| {
            unit.split(|c: char| c.is_whitespace() || c == ',')
                .filter(|w| !w.is_empty())
                .map(|w| {
                    parse_cell_name(w, n).ok_or_else(|| {
                        syntax(format!(
                            "extra unit {}: '{}' is not a cell of a {n}x{n} grid (expected rRcC, 1-based)",
                            i + 1,
                            echo(w)
                        ))
                    })
                })
                .collect::<Result<Vec<Cell>, _>>()
        })
        .collect::<Result<Vec<_>, _>>()?;
    Geometry::with_extra_units(n, layout, &variants, extra).map_err(geometry_error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::geometry::UnitKind;

    #[test]
    fn reads_boxes_variants_and_extra_units() {
        let g = parse_grid_file(
            "size = 4\nboxes = \"2x2\"\nvariants = [\"x\"]\nextra_units = [\"r1c1 r1c2 r2c1 r2c2\"]\n",
            "t",
        )
        .unwrap();
        assert_eq!(g.units().len(), 4 * 3 + 2 + 1);
        assert_eq!(g.units().last().unwrap().kind(), UnitKind::Extra);
    }

    #[test]
    fn reads_jigsaw_regions() {
        let g = parse_grid_file("size = 4\nregions = \"\"\"\naabb\naabb\nccdd\nccdd\n\"\"\"\n", "t").unwrap();
        assert!(matches!(g.layout(), Layout::Regions(_)));
    }

    #[test]
    fn errors_name_the_file_and_the_problem() {
        let e = parse_grid_file("size = 9\nboxes = \"2x4\"\n", "nine.toml").unwrap_err();
        assert_eq!(e.to_string(), "nine.toml: boxes of 2x4 do not tile a 9x9 grid (expected R x C = 9)");
        let e = parse_grid_file("size = 9\nbox = \"3x3\"\n", "nine.toml").unwrap_err();
        assert!(e.to_string().starts_with("nine.toml: "), "{e}");
        let e = parse_grid_file("size = 4\nextra_units = [\"r1c1 r9c9\"]\n", "t").unwrap_err();
        assert!(e.to_string().contains("'r9c9' is not a cell"), "{e}");
    }
}
