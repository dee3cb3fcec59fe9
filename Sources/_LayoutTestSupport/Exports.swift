@_exported import FeedLayoutSupport
