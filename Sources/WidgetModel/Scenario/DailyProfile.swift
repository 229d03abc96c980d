/// Named shapes of a day: relative weights of the 24 local hours, for
/// views, app sessions and content changes. Only the hours the user is
/// awake count for people; content profiles use all 24.
public enum DailyProfile: String, Sendable, CaseIterable {
  /// Every hour the same.
  case flat
  /// A little more in the morning and evening, less at lunch and late.
  case daytime
  /// Two peaks: the commute (07-09) and the evening (18-22).
  case morningEvening = "morning_evening"
  /// Mostly after 17:00.
  case evening
  /// Mostly office hours, 09-18.
  case office
  /// News-like: a strong morning, a lunch bump, an evening plateau.
  case news

  public var weights: [Double] {
    switch self {
    case .flat:
      return Array(repeating: 1, count: 24)
    case .daytime:
      return [
        0.3, 0.2, 0.2, 0.2, 0.2, 0.3, 0.6, 1.2, 1.3, 1.1, 1.0, 1.0,
        1.1, 1.0, 0.9, 0.9, 1.0, 1.2, 1.3, 1.3, 1.2, 1.1, 0.9, 0.6,
      ]
    case .morningEvening:
      return [
        0.3, 0.2, 0.2, 0.2, 0.2, 0.3, 0.8, 2.0, 2.0, 1.2, 0.7, 0.7,
        1.0, 0.8, 0.7, 0.7, 0.9, 1.4, 2.0, 2.0, 2.0, 1.8, 1.2, 0.6,
      ]
    case .evening:
      return [
        0.6, 0.3, 0.2, 0.2, 0.2, 0.2, 0.3, 0.5, 0.5, 0.5, 0.5, 0.5,
        0.6, 0.5, 0.5, 0.6, 0.8, 1.5, 2.0, 2.2, 2.2, 2.0, 1.6, 1.0,
      ]
    case .office:
      return [
        0.2, 0.1, 0.1, 0.1, 0.1, 0.2, 0.4, 0.8, 1.2, 1.6, 1.6, 1.6,
        1.4, 1.6, 1.6, 1.6, 1.5, 1.2, 0.8, 0.6, 0.5, 0.4, 0.3, 0.2,
      ]
    case .news:
      return [
        0.3, 0.2, 0.1, 0.1, 0.2, 0.5, 1.2, 2.0, 2.0, 1.5, 1.2, 1.2,
        1.5, 1.2, 1.0, 1.0, 1.0, 1.3, 1.5, 1.5, 1.3, 1.0, 0.7, 0.5,
      ]
    }
  }
}
