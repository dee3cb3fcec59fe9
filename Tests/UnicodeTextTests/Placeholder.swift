// Tests for this module are being written; this file goes when they land.
import XCTest
