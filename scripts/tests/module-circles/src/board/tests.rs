// A test module in its own file: anything it uses is no edge.
use crate::helper::Helper;
use super::super::search::Search;
