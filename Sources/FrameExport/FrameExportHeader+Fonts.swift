import TextMeasure

extension FrameExport {
    /// The version of the FeedLayout library, written as the generator's version by the
    /// `FrameExportHeader` conveniences.
    public static let libraryVersion = "0.1.0"
}

extension FrameExportHeader {
    /// The header of an export laid out with the cascade `fonts`: every font of its manifest (role,
    /// file, face index, sha256, in manifest order) and the generator, by default this library
    /// at `FrameExport.libraryVersion`.
    public init(fonts: FontSet, generatorName: String = "feedlayout", generatorVersion: String = FrameExport.libraryVersion) {
        self.init(generatorName: generatorName, generatorVersion: generatorVersion, manifest: fonts.manifest)
    }

    /// The header of an export measured by `measurer` (its `FontSet`).
    public init(measurer: TextMeasurer, generatorName: String = "feedlayout", generatorVersion: String = FrameExport.libraryVersion) {
        self.init(fonts: measurer.fonts, generatorName: generatorName, generatorVersion: generatorVersion)
    }
}
