//! A second implementation of Continuity's rules, written from the issue
//! text cell by cell, to replay the planner's plans. It shares no code
//! with `boardbot::games::continuity`: it keeps the whole frame as one big
//! grid of cells (the empty slot as walls), the character in frame
//! coordinates, and moves whole blocks of cells on a slide.

/// One cell of the big grid.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum C {
    Wall,
    Air,
    Key,
    Door,
}

/// The game, as the issue states it.
#[derive(Clone, Debug)]
pub struct Game {
    pub s: usize,
    pub rows: usize,
    pub cols: usize,
    pub jump: usize,
    /// `grid[y][x]` over the whole frame.
    pub grid: Vec<Vec<C>>,
    /// Frame slot of the empty slot (row, col).
    pub gap: (usize, usize),
    /// The character, in frame cells.
    pub x: usize,
    pub y: usize,
    pub rising: usize,
    pub keys_left: usize,
    pub tile_view: bool,
    pub won: bool,
    pub steps: u64,
    pub slides: u64,
    pub toggles: u64,
}

impl Game {
    /// Reads the level text: headers, the frame, then `X:` blocks.
    pub fn parse(text: &str) -> Game {
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && *l != "#" && !l.starts_with("# "))
            .collect();
        let mut jump = 2;
        let mut i = 0;
        while lines[i].contains(' ') {
            let mut w = lines[i].split_whitespace();
            if w.next() == Some("jump") {
                jump = w.next().unwrap().parse().unwrap();
            }
            i += 1;
        }
        let mut frame = Vec::new();
        while !lines[i].ends_with(':') {
            frame.push(lines[i].chars().collect::<Vec<char>>());
            i += 1;
        }
        let mut blocks: Vec<(char, Vec<Vec<char>>)> = Vec::new();
        for l in &lines[i..] {
            if l.len() == 2 && l.ends_with(':') {
                blocks.push((l.chars().next().unwrap(), Vec::new()));
            } else {
                blocks.last_mut().unwrap().1.push(l.chars().collect());
            }
        }
        let s = blocks[0].1.len();
        let (rows, cols) = (frame.len(), frame[0].len());
        let mut g = Game {
            s,
            rows,
            cols,
            jump,
            grid: vec![vec![C::Wall; cols * s]; rows * s],
            gap: (0, 0),
            x: 0,
            y: 0,
            rising: 0,
            keys_left: 0,
            tile_view: false,
            won: false,
            steps: 0,
            slides: 0,
            toggles: 0,
        };
        for (fr, row) in frame.iter().enumerate() {
            for (fc, &name) in row.iter().enumerate() {
                if name == '.' {
                    g.gap = (fr, fc);
                    continue;
                }
                let block = &blocks.iter().find(|b| b.0 == name).unwrap().1;
                for (y, line) in block.iter().enumerate() {
                    for (x, ch) in line.iter().enumerate() {
                        let (gx, gy) = (fc * s + x, fr * s + y);
                        g.grid[gy][gx] = match ch {
                            '#' => C::Wall,
                            'k' => {
                                g.keys_left += 1;
                                C::Key
                            }
                            'D' => C::Door,
                            '@' => {
                                (g.x, g.y) = (gx, gy);
                                C::Air
                            }
                            _ => C::Air,
                        };
                    }
                }
            }
        }
        g
    }

    fn free(&self, x: i64, y: i64) -> bool {
        let (w, h) = ((self.cols * self.s) as i64, (self.rows * self.s) as i64);
        x >= 0 && y >= 0 && x < w && y < h && self.grid[y as usize][x as usize] != C::Wall
    }

    /// Moves to (x, y) and takes what is there.
    fn go(&mut self, x: i64, y: i64) {
        (self.x, self.y) = (x as usize, y as usize);
        match self.grid[self.y][self.x] {
            C::Key => {
                self.grid[self.y][self.x] = C::Air;
                self.keys_left -= 1;
            }
            C::Door if self.keys_left == 0 => self.won = true,
            _ => {}
        }
    }

    /// One platform step: 'L', 'R', 'J' or 'W'.
    pub fn step(&mut self, m: char) -> Result<(), String> {
        if self.tile_view || self.won {
            return Err(format!("step {m} in the tile view or after the win"));
        }
        self.steps += 1;
        let (x, y) = (self.x as i64, self.y as i64);
        let dx = match m {
            'L' => -1,
            'R' => 1,
            'J' | 'W' => 0,
            _ => return Err(format!("{m:?} is not a step")),
        };
        if dx != 0 && self.free(x + dx, y) {
            self.go(x + dx, y);
            if self.won {
                return Ok(());
            }
        }
        let (x, y) = (self.x as i64, self.y as i64);
        let on_ground = !self.free(x, y + 1);
        if m == 'J' && on_ground {
            self.rising = self.jump;
        }
        if self.rising > 0 {
            if self.free(x, y - 1) {
                self.rising -= 1;
                self.go(x, y - 1);
            } else {
                self.rising = 0;
            }
        } else if !on_ground {
            self.go(x, y + 1);
        }
        Ok(())
    }

    /// One arrow in the tile view: the scene on the far side of the gap
    /// moves `d` ('U', 'D', 'L', 'R') into it, the character with it.
    pub fn slide(&mut self, d: char) -> Result<(), String> {
        if !self.tile_view || self.won {
            return Err("a slide outside the tile view".into());
        }
        let (gr, gc) = (self.gap.0 as i64, self.gap.1 as i64);
        let (fr, fc) = match d {
            'U' => (gr + 1, gc),
            'D' => (gr - 1, gc),
            'L' => (gr, gc + 1),
            'R' => (gr, gc - 1),
            _ => return Err(format!("{d:?} is not a direction")),
        };
        if fr < 0 || fc < 0 || fr >= self.rows as i64 || fc >= self.cols as i64 {
            return Err(format!("no scene to slide {d}"));
        }
        let (fr, fc) = (fr as usize, fc as usize);
        let s = self.s;
        let carried = self.y / s == fr && self.x / s == fc;
        for y in 0..s {
            for x in 0..s {
                let cell = self.grid[fr * s + y][fc * s + x];
                self.grid[self.gap.0 * s + y][self.gap.1 * s + x] = cell;
                self.grid[fr * s + y][fc * s + x] = C::Wall;
            }
        }
        if carried {
            self.x = self.gap.1 * s + self.x % s;
            self.y = self.gap.0 * s + self.y % s;
        }
        self.gap = (fr, fc);
        self.slides += 1;
        Ok(())
    }

    pub fn toggle(&mut self) -> Result<(), String> {
        if self.won {
            return Err("a toggle after the win".into());
        }
        self.tile_view = !self.tile_view;
        self.toggles += 1;
        Ok(())
    }

    /// The plan's cost so far with slides costing `slide_cost`.
    pub fn cost(&self, slide_cost: u64) -> u64 {
        self.steps + self.toggles + self.slides * slide_cost
    }
}

/// Replays a plan's JSON segments; the game after them.
pub fn replay(level: &str, plan: &serde_json::Value) -> Result<Game, String> {
    let mut g = Game::parse(level);
    for seg in plan["segments"].as_array().ok_or("no segments")? {
        match seg["kind"].as_str() {
            Some("toggle") => g.toggle()?,
            Some("slide") => g.slide(
                seg["slide"]
                    .as_str()
                    .and_then(|s| s.chars().next())
                    .ok_or("no slide")?,
            )?,
            Some("steps") => {
                for m in seg["moves"].as_str().ok_or("no moves")?.chars() {
                    g.step(m)?;
                }
            }
            other => return Err(format!("unknown segment {other:?}")),
        }
    }
    Ok(g)
}
