import Foundation

// The renderer's icons: vector paths drawn by cairo, anti-aliased, at any scale.
//
// Each icon is designed in a unit square (0…1 on both axes, y down) and drawn into a rect of image
// pixels: the square is mapped onto the rect's largest centred square, so stroke widths and
// details scale with the icon. All paths are the project's own: simple geometric shapes in the
// manner of a feed client's toolbar and badges, not copies of any icon set.

/// Icons the renderer draws in place of the layout's named images.
enum Icon: Sendable, Hashable, CaseIterable {
    /// Toolbar: two arrows chasing each other round a rectangle.
    case repost
    /// Toolbar: a speech bubble with a tail at its lower left.
    case comment
    /// Toolbar: a raised thumb.
    case like
    /// A filled circle with a white ring and a white "V" (personal verification: orange).
    case verifiedPerson
    /// The same "V" badge in blue (organizations).
    case verifiedOrganization
    /// A pink circle with a white ring and a white five-pointed star (the club badge).
    case club
    /// An orange crown (membership).
    case member
    /// A white play triangle in a white ring on a dark translucent disc (video cards).
    case play
    /// A white page with three lines on a dark translucent rounded square (card type).
    case article
    /// Two interlocking chain links (inline link icon).
    case link
    /// A head and shoulders on the placeholder disc (avatars).
    case person
    /// A flame (title bars).
    case flame
    /// A map pin (place tags).
    case pin
    /// A number sign (topic tags).
    case topic
}

/// Colours of the icons (their ink where it is not the caller's).
enum IconColors {
    static let verifiedPerson = RGBA(rgb: 0xF6A623)
    static let verifiedOrganization = RGBA(rgb: 0x2D8CF0)
    static let club = RGBA(rgb: 0xF25A7A)
    static let member = RGBA(rgb: 0xF79A1A)
    static let memberBand = RGBA(rgb: 0xE0760C)
    static let white = RGBA(rgb: 0xFFFFFF)
    static let dim = RGBA(rgb: 0x000000, opacity: 0.45)
    static let flame = RGBA(rgb: 0xFF6A1A)
    static let personInk = RGBA(rgb: 0xFFFFFF, opacity: 0.85)
}

extension CairoCanvas {
    /// Draws `icon` in the pixel rect (x, y, w, h); `ink` colours the toolbar, link and tag icons.
    /// - Parameter filled: the toolbar's like icon filled (a liked status).
    func draw(_ icon: Icon, x: Double, y: Double, w: Double, h: Double, ink: RGBA, filled: Bool = false) {
        let side = min(w, h)
        guard side > 0 else { return }
        withSavedState {
            translate(x + (w - side) / 2, y + (h - side) / 2)
            scale(side)
            drawUnit(icon, ink: ink, filled: filled, pixel: 1 / side)
        }
    }

    /// The icon in the unit square; `pixel` is one image pixel in unit lengths (for hairlines).
    private func drawUnit(_ icon: Icon, ink: RGBA, filled: Bool, pixel: Double) {
        // Strokes at least one pixel wide, whatever the size.
        let thin = max(0.075, pixel)
        switch icon {
        case .repost:
            // Upper arrow: up the left side, along the top, head pointing right.
            move(0.14, 0.60)
            line(0.14, 0.40)
            curve(0.14, 0.31, 0.20, 0.27, 0.28, 0.27)
            line(0.74, 0.27)
            stroke(ink, width: thin)
            move(0.70, 0.14)
            line(0.90, 0.27)
            line(0.70, 0.40)
            close()
            fill(ink)
            // Lower arrow: down the right side, along the bottom, head pointing left.
            move(0.86, 0.40)
            line(0.86, 0.60)
            curve(0.86, 0.69, 0.80, 0.73, 0.72, 0.73)
            line(0.26, 0.73)
            stroke(ink, width: thin)
            move(0.30, 0.60)
            line(0.10, 0.73)
            line(0.30, 0.86)
            close()
            fill(ink)
        case .comment:
            // The bubble and its tail as one outline.
            let x0 = 0.10, y0 = 0.14, x1 = 0.90, y1 = 0.72, r = 0.16
            let pi = Double.pi
            newPath()
            move(x0 + r, y0)
            line(x1 - r, y0)
            arc(x1 - r, y0 + r, radius: r, from: -pi / 2, to: 0)
            line(x1, y1 - r)
            arc(x1 - r, y1 - r, radius: r, from: 0, to: pi / 2)
            line(0.46, y1)
            line(0.26, 0.90)
            line(0.30, y1)
            line(x0 + r, y1)
            arc(x0 + r, y1 - r, radius: r, from: pi / 2, to: pi)
            line(x0, y0 + r)
            arc(x0 + r, y0 + r, radius: r, from: pi, to: 3 * pi / 2)
            close()
            stroke(ink, width: thin)
            // Three dots inside.
            for cx in [0.32, 0.50, 0.68] { circle(cx, 0.43, radius: thin * 0.7) }
            fill(ink)
        case .like:
            // The cuff.
            roundedRect(0.10, 0.44, 0.17, 0.44, radius: 0.04)
            if filled { fill(ink) } else { stroke(ink, width: thin) }
            // The hand: the thumb rises from the back of the hand, the fingers' edge on the right.
            newPath()
            move(0.36, 0.46)
            line(0.49, 0.18)
            curve(0.52, 0.10, 0.63, 0.10, 0.64, 0.19)
            line(0.61, 0.38)
            line(0.82, 0.38)
            curve(0.89, 0.38, 0.93, 0.44, 0.91, 0.51)
            line(0.83, 0.81)
            curve(0.82, 0.85, 0.79, 0.88, 0.75, 0.88)
            line(0.36, 0.88)
            close()
            if filled { fill(ink) } else { stroke(ink, width: thin) }
        case .verifiedPerson, .verifiedOrganization:
            disc(icon == .verifiedPerson ? IconColors.verifiedPerson : IconColors.verifiedOrganization, ring: thin)
            move(0.31, 0.36)
            line(0.50, 0.70)
            line(0.69, 0.36)
            stroke(IconColors.white, width: max(0.12, pixel))
        case .club:
            disc(IconColors.club, ring: thin)
            star(cx: 0.5, cy: 0.53, outer: 0.30, inner: 0.13)
            fill(IconColors.white)
        case .member:
            // Crown: three points over a band.
            move(0.10, 0.74)
            line(0.10, 0.30)
            line(0.32, 0.50)
            line(0.50, 0.18)
            line(0.68, 0.50)
            line(0.90, 0.30)
            line(0.90, 0.74)
            close()
            fill(IconColors.member)
            roundedRect(0.10, 0.74, 0.80, 0.14, radius: 0.03)
            fill(IconColors.memberBand)
            for (cx, cy) in [(0.10, 0.27), (0.50, 0.15), (0.90, 0.27)] { circle(cx, cy, radius: 0.065) }
            fill(IconColors.member)
        case .play:
            circle(0.5, 0.5, radius: 0.48)
            fill(IconColors.dim)
            circle(0.5, 0.5, radius: 0.44)
            stroke(IconColors.white, width: max(0.05, pixel))
            move(0.40, 0.30)
            line(0.72, 0.50)
            line(0.40, 0.70)
            close()
            fill(IconColors.white)
        case .article:
            roundedRect(0, 0, 1, 1, radius: 0.12)
            fill(IconColors.dim)
            roundedRect(0.24, 0.18, 0.52, 0.64, radius: 0.05)
            stroke(IconColors.white, width: max(0.07, pixel))
            for y in [0.36, 0.50, 0.64] {
                move(0.34, y)
                line(0.66, y)
            }
            stroke(IconColors.white, width: max(0.06, pixel))
        case .link:
            withSavedState {
                translate(0.5, 0.5)
                rotate(-Double.pi / 4)
                roundedRect(-0.44, -0.15, 0.50, 0.30, radius: 0.15)
                roundedRect(-0.06, -0.15, 0.50, 0.30, radius: 0.15)
                stroke(ink, width: max(0.09, pixel))
            }
        case .person:
            circle(0.5, 0.38, radius: 0.17)
            fill(IconColors.personInk)
            move(0.16, 0.86)
            curve(0.18, 0.64, 0.34, 0.58, 0.5, 0.58)
            curve(0.66, 0.58, 0.82, 0.64, 0.84, 0.86)
            close()
            fill(IconColors.personInk)
        case .flame:
            move(0.50, 0.06)
            curve(0.78, 0.30, 0.86, 0.52, 0.80, 0.70)
            curve(0.74, 0.88, 0.60, 0.94, 0.50, 0.94)
            curve(0.34, 0.94, 0.20, 0.84, 0.20, 0.66)
            curve(0.20, 0.50, 0.30, 0.42, 0.34, 0.30)
            curve(0.40, 0.40, 0.44, 0.44, 0.48, 0.46)
            curve(0.54, 0.32, 0.54, 0.18, 0.50, 0.06)
            close()
            fill(IconColors.flame)
        case .pin:
            move(0.50, 0.94)
            curve(0.30, 0.68, 0.18, 0.52, 0.18, 0.38)
            curve(0.18, 0.20, 0.32, 0.06, 0.50, 0.06)
            curve(0.68, 0.06, 0.82, 0.20, 0.82, 0.38)
            curve(0.82, 0.52, 0.70, 0.68, 0.50, 0.94)
            close()
            circle(0.50, 0.38, radius: 0.12)
            fill(ink, evenOdd: true)
        case .topic:
            for (x0, x1) in [(0.40, 0.32), (0.68, 0.60)] {
                move(x0, 0.14)
                line(x1, 0.86)
            }
            for y in [0.38, 0.62] {
                move(0.16, y)
                line(0.84, y)
            }
            stroke(ink, width: max(0.08, pixel), roundCaps: false)
        }
    }

    /// A badge disc: the colour inside a white ring.
    private func disc(_ c: RGBA, ring: Double) {
        circle(0.5, 0.5, radius: 0.5)
        fill(IconColors.white)
        circle(0.5, 0.5, radius: 0.5 - max(ring, 0.08))
        fill(c)
    }

    /// A five-pointed star around (cx, cy), one point up.
    private func star(cx: Double, cy: Double, outer: Double, inner: Double) {
        for i in 0..<10 {
            let r = i % 2 == 0 ? outer : inner
            let a = -Double.pi / 2 + Double(i) * Double.pi / 5
            let (x, y) = (cx + r * cos(a), cy + r * sin(a))
            if i == 0 { move(x, y) } else { line(x, y) }
        }
        close()
    }
}
