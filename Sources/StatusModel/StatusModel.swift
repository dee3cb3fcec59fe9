// StatusModel: module under construction (see docs/ARCHITECTURE.md).
