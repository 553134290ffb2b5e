//! `INFO`: what each key sets in the session (time, memory, threads, limits, rule).

use super::Session;
use crate::dialect::{Dialect, RuleCode};
use crate::info::{hash_mb_for, hash_mb_for_size};

impl<D: Dialect> Session<D> {
    /// Applies `INFO key value`; unknown keys and values are ignored (logged).
    pub(crate) fn info(&mut self, key: &str, value: &str) {
        let number = value.trim().parse::<i64>().ok();
        match (key, number) {
            ("timeout_turn", Some(ms)) => self.time.turn_ms = ms.max(0),
            ("timeout_match", Some(ms)) => self.time.match_ms = ms.max(0),
            ("time_left", Some(ms)) => {
                self.time.left_ms = Some(ms);
                self.clock_sent = true;
            }
            ("max_memory", Some(bytes)) => {
                self.time.max_memory = bytes.max(0);
                self.options.hash_mb = hash_mb_for(self.time.max_memory);
            }
            ("hash_size", Some(kb)) if kb > 0 => self.options.hash_mb = hash_mb_for_size(kb, self.time.max_memory),
            ("thread_num", Some(threads)) if threads > 0 => self.options.threads = (threads as usize).min(64),
            ("max_depth", Some(depth)) => self.max_depth = (depth > 0).then_some(depth as u32),
            ("max_node", Some(nodes)) => self.max_nodes = (nodes > 0).then_some(nodes as u64),
            ("show_detail", Some(level)) => self.show_detail = level != 0,
            ("rule", Some(rule)) => {
                let rule = RuleCode::from_number(rule);
                if rule != self.rule {
                    self.rule = rule;
                    if self.size.is_some() {
                        self.engine.stop();
                        self.engine.wait();
                        self.apply_our_moves();
                        if let Err(error) = self.rebuild() {
                            self.error(&error.to_string());
                        }
                    }
                }
            }
            // game_type, evaluate, folder, caution_factor, pondering and unknown keys need nothing.
            _ => tracing::debug!("INFO {key} {value} ignored"),
        }
    }
}
