// `super::` within search is no edge; `super::super::position` leaves it: search → position.
use super::Search;
use super::super::position::Position;

pub struct Order;

impl Order {
    pub const FIRST: u8 = 1;
}

macro_rules! inside {
    () => {
        $crate::helper::Helper // a macro path: no edge
    };
}
