import Foundation

/// One press of the editor's photo controls: move the photo within its slot, or zoom it.
public enum CardPhotoAdjustment: String, Codable, Sendable, Hashable, CaseIterable {
    case left, right, up, down
    case zoomIn = "in"
    case zoomOut = "out"
}

extension CardPhotoRules {
    /// `photo` after one press: moving it left shows more of its right side (the pan goes towards 1), a step a press;
    /// zooming by `zoomStep` within `zoomRange`. Pans stay in -1…1, so the slot stays covered.
    public static func adjusted(_ photo: CardPhotoPlacement, _ adjustment: CardPhotoAdjustment) -> CardPhotoPlacement {
        var photo = photo
        let clamp = { (value: Double, range: ClosedRange<Double>) in
            (min(max(value, range.lowerBound), range.upperBound) * 100).rounded() / 100
        }
        switch adjustment {
        case .left: photo.panX = clamp(photo.panX + panStep, panRange)
        case .right: photo.panX = clamp(photo.panX - panStep, panRange)
        case .up: photo.panY = clamp(photo.panY + panStep, panRange)
        case .down: photo.panY = clamp(photo.panY - panStep, panRange)
        case .zoomIn: photo.zoom = clamp(photo.zoom + zoomStep, zoomRange)
        case .zoomOut: photo.zoom = clamp(photo.zoom - zoomStep, zoomRange)
        }
        return photo
    }
}
