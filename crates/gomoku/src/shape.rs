//! Cell shapes: the four line patterns one side makes by playing a cell, combined into one code
//! (after Rapfi's "pattern4" classes), with the threat level and the evaluation weights of each.

use crate::pattern::LinePattern;

/// How strong a threat playing a cell makes for one side (combining its four lines), weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(u8)]
pub enum Threat {
    /// Nothing forcing.
    #[default]
    None = 0,
    /// Makes one open three.
    Three,
    /// Makes one four (a single five threat).
    Four,
    /// Makes two open threes.
    ThreeThree,
    /// Makes a four and an open three.
    FourThree,
    /// Makes two five threats at once (a straight four or two fours): wins unless met by a five.
    FlexFour,
    /// Makes five: wins now.
    Five,
}

/// What playing a cell makes for one side over its four lines, weakest first (`Forbidden`
/// aside: renju black's usual forbidden shapes, worth nothing to black).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(u8)]
pub enum Shape {
    /// Nothing worth naming.
    #[default]
    None = 0,
    /// Renju black: an overline, double four or double three (judged on the lines alone).
    Forbidden,
    /// One open two.
    FlexTwo,
    /// One blocked three.
    BlockThree,
    /// Two open twos.
    DoubleFlexTwo,
    /// A blocked three with another blocked three or an open two.
    BlockThreePlus,
    /// One open three.
    FlexThree,
    /// An open three with a blocked three or an open two.
    FlexThreePlus,
    /// Two open threes.
    DoubleFlexThree,
    /// One blocked four.
    BlockFour,
    /// A blocked four with a blocked three or an open two.
    BlockFourPlus,
    /// A blocked four with an open three.
    BlockFourFlexThree,
    /// A straight four, or two fours: wins unless met by a five.
    FlexFour,
    /// Five: wins now.
    Five,
}

/// Number of [`Shape`] codes.
pub const SHAPES: usize = Shape::ALL.len();

impl Shape {
    /// Every shape, in code order.
    pub const ALL: [Shape; 14] = [
        Shape::None,
        Shape::Forbidden,
        Shape::FlexTwo,
        Shape::BlockThree,
        Shape::DoubleFlexTwo,
        Shape::BlockThreePlus,
        Shape::FlexThree,
        Shape::FlexThreePlus,
        Shape::DoubleFlexThree,
        Shape::BlockFour,
        Shape::BlockFourPlus,
        Shape::BlockFourFlexThree,
        Shape::FlexFour,
        Shape::Five,
    ];

    /// Combines the four line patterns of a cell; `forbidden_rule` is renju black.
    #[must_use]
    pub fn of(lines: &[LinePattern; 4], forbidden_rule: bool) -> Shape {
        let mut count = [0u8; 10];
        for &line in lines {
            count[line as usize] += 1;
        }
        let n = |pattern: LinePattern| count[pattern as usize];
        if n(LinePattern::Five) > 0 {
            return Shape::Five;
        }
        let fours = n(LinePattern::FourBlocked) + n(LinePattern::Four) + 2 * n(LinePattern::FourFour);
        let flex_threes = n(LinePattern::ThreeOpen);
        if forbidden_rule && (n(LinePattern::Overline) > 0 || fours >= 2 || flex_threes >= 2) {
            return Shape::Forbidden;
        }
        let minor = n(LinePattern::ThreeBlocked) + n(LinePattern::TwoOpen);
        if n(LinePattern::Four) > 0 || fours >= 2 {
            Shape::FlexFour
        } else if fours == 1 {
            if flex_threes > 0 {
                Shape::BlockFourFlexThree
            } else if minor > 0 {
                Shape::BlockFourPlus
            } else {
                Shape::BlockFour
            }
        } else if flex_threes >= 2 {
            Shape::DoubleFlexThree
        } else if flex_threes == 1 {
            if minor > 0 {
                Shape::FlexThreePlus
            } else {
                Shape::FlexThree
            }
        } else if n(LinePattern::ThreeBlocked) > 0 && minor >= 2 {
            Shape::BlockThreePlus
        } else if n(LinePattern::TwoOpen) >= 2 {
            Shape::DoubleFlexTwo
        } else if n(LinePattern::ThreeBlocked) > 0 {
            Shape::BlockThree
        } else if n(LinePattern::TwoOpen) > 0 {
            Shape::FlexTwo
        } else {
            Shape::None
        }
    }

    /// The threat level the shape gives (what the threat-space solver and move generation use).
    #[must_use]
    pub fn threat(self) -> Threat {
        match self {
            Shape::None
            | Shape::Forbidden
            | Shape::FlexTwo
            | Shape::BlockThree
            | Shape::DoubleFlexTwo
            | Shape::BlockThreePlus => Threat::None,
            Shape::FlexThree | Shape::FlexThreePlus => Threat::Three,
            Shape::DoubleFlexThree => Threat::ThreeThree,
            Shape::BlockFour | Shape::BlockFourPlus => Threat::Four,
            Shape::BlockFourFlexThree => Threat::FourThree,
            Shape::FlexFour => Threat::FlexFour,
            Shape::Five => Threat::Five,
        }
    }

    /// Whether playing the shape makes at least a four (a five threat).
    #[must_use]
    pub fn is_four(self) -> bool {
        self >= Shape::BlockFour
    }
}

/// Move-ordering value of a cell for the side that would play it (attack).
pub const ATTACK_VALUE: [i32; SHAPES] = [0, 0, 10, 8, 35, 40, 70, 100, 500, 60, 90, 1200, 3000, 20000];
/// Move-ordering value of a cell that the opponent would like to play (defence).
pub const DEFENCE_VALUE: [i32; SHAPES] = [0, 0, 8, 6, 25, 30, 50, 70, 300, 15, 30, 400, 1200, 10000];

#[cfg(test)]
mod tests {
    use super::*;
    use LinePattern as L;

    #[test]
    fn every_shape_is_listed_in_code_order() {
        for (index, shape) in Shape::ALL.iter().enumerate() {
            assert_eq!(*shape as usize, index);
        }
    }

    #[test]
    fn combinations() {
        let shape = |lines: [LinePattern; 4]| Shape::of(&lines, false);
        assert_eq!(shape([L::Five, L::Four, L::None, L::None]), Shape::Five);
        assert_eq!(shape([L::FourBlocked, L::FourBlocked, L::None, L::None]), Shape::FlexFour);
        assert_eq!(shape([L::FourFour, L::None, L::None, L::None]), Shape::FlexFour);
        assert_eq!(shape([L::FourBlocked, L::ThreeOpen, L::None, L::None]), Shape::BlockFourFlexThree);
        assert_eq!(shape([L::FourBlocked, L::TwoOpen, L::None, L::None]), Shape::BlockFourPlus);
        assert_eq!(shape([L::ThreeOpen, L::ThreeOpen, L::None, L::None]), Shape::DoubleFlexThree);
        assert_eq!(shape([L::ThreeOpen, L::ThreeBlocked, L::None, L::None]), Shape::FlexThreePlus);
        assert_eq!(shape([L::ThreeBlocked, L::TwoOpen, L::None, L::None]), Shape::BlockThreePlus);
        assert_eq!(shape([L::TwoOpen, L::TwoOpen, L::TwoBlocked, L::None]), Shape::DoubleFlexTwo);
        assert_eq!(shape([L::TwoOpen, L::TwoBlocked, L::None, L::None]), Shape::FlexTwo);
        assert_eq!(shape([L::TwoBlocked, L::None, L::None, L::None]), Shape::None);
        // Renju black: double three, double four and overline fold into `Forbidden`; five wins anyway.
        assert_eq!(Shape::of(&[L::ThreeOpen, L::ThreeOpen, L::None, L::None], true), Shape::Forbidden);
        assert_eq!(Shape::of(&[L::Overline, L::None, L::None, L::None], true), Shape::Forbidden);
        assert_eq!(Shape::of(&[L::Five, L::ThreeOpen, L::ThreeOpen, L::None], true), Shape::Five);
        assert_eq!(Shape::of(&[L::FourBlocked, L::ThreeOpen, L::None, L::None], true), Shape::BlockFourFlexThree);
    }
}
