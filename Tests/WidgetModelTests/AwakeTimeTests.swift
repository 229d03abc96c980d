import ReloadEngine
import Testing

import WidgetModel

/// `DeviceEnvironment.nextAwakeTime` finds the user's next awake hour from
/// the day's bit mask; the answer must be the hour-by-hour walk's.
@Suite struct AwakeTimeTests {
  /// The walk `nextAwakeTime` replaced: the time itself if awake, else
  /// each following local hour's start until one is awake.
  static func walk(_ env: DeviceEnvironment, _ time: SimTime) -> SimTime {
    if env.awakeHours == 0 { return .never }
    var t = time
    for _ in 0..<25 {
      if env.isAwake(at: t) { return t }
      var local = (t.milliseconds + env.utcOffset.milliseconds) % 3_600_000
      if local < 0 { local += 3_600_000 }
      t = SimTime(milliseconds: t.milliseconds - local + 3_600_000)
    }
    return .never
  }

  @Test func nextAwakeTimeMatchesTheHourByHourWalk() {
    var rng = Xoshiro256StarStar(seed: 20261204)
    var env = DeviceEnvironment()
    var checked = 0
    for trial in 0..<400 {
      // Masks: one awake hour, a night across midnight, random ones, all
      // hours, none; offsets whole and not, east and west of UTC.
      switch trial % 5 {
      case 0: env.awakeHours = 1 << UInt32(rng.nextIndex(below: 24))
      case 1:
        let wake = rng.nextIndex(below: 24)
        let length = 1 + rng.nextIndex(below: 23)
        env.awakeHours = 0
        for h in 0..<length { env.awakeHours |= 1 << UInt32((wake + h) % 24) }
      case 2: env.awakeHours = UInt32(truncatingIfNeeded: rng.next()) & 0xFF_FFFF
      case 3: env.awakeHours = 0xFF_FFFF
      default: env.awakeHours = trial % 10 == 4 ? 0 : UInt32(truncatingIfNeeded: rng.next()) & 0xFF_FFFF
      }
      let quarters = Int64(rng.nextIndex(below: 105)) - 48  // -12 h ... +14 h in quarter hours
      env.utcOffset = .milliseconds(quarters * 900_000)
      for _ in 0..<40 {
        // Before UTC 0 too, on hour boundaries and just before them.
        var t = Int64(rng.nextIndex(below: 40 * 86_400_000)) - 5 * 86_400_000
        if rng.nextIndex(below: 4) == 0 { t -= t % 3_600_000 }
        if rng.nextIndex(below: 4) == 0 { t -= 1 }
        let time = SimTime(milliseconds: t)
        #expect(env.nextAwakeTime(atOrAfter: time) == Self.walk(env, time), "mask \(env.awakeHours), offset \(quarters) quarters, t \(t)")
        checked += 1
      }
    }
    #expect(checked == 16_000)
  }
}
