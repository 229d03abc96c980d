import ReloadEngine
import Testing
import WidgetModel

/// Schedules at clock times, on weekdays or weekends, with a drift or a
/// publication lag (docs/model.md#calendar, #clock-times,
/// #weekday-patterns, #publication-lag), checked against their definition.
@Suite struct CalendarScheduleTests {
  static let day: Int64 = 86_400_000

  static func hm(_ h: Int, _ m: Int) -> SimDuration { .minutes(Double(h * 60 + m)) }

  /// Local time of day (ms) and local day of `t` on a clock `offset` east of UTC.
  static func local(_ t: SimTime, _ offset: SimDuration) -> (day: Int64, tod: Int64) {
    let l = t.milliseconds + offset.milliseconds
    let d = l >= 0 ? l / day : -((-l + day - 1) / day)
    return (d, l - d * day)
  }

  /// Every change from `t` on, by repeated `next(after:)`, while before `end`.
  static func changes(_ s: ChangeSchedule, from t: SimTime = SimTime(milliseconds: -day), until end: SimTime) -> [SimTime] {
    var out: [SimTime] = []
    var c = s.next(after: t)
    while c < end {
      out.append(c)
      c = s.next(after: c)
    }
    return out
  }

  @Test(arguments: [10.0, -5.0])
  func clockTimesChangeExactlyAtTheirLocalTimes(offsetHours: Double) {
    let offset = SimDuration.hours(offsetHours)
    let s = ChangeSchedule(.clockTimes([Self.hm(6, 0), Self.hm(13, 10)]), clockOffset: offset)
    let all = Self.changes(s, from: .zero, until: .zero + .days(7))
    #expect(all.count == 14, "two a day for 7 days, got \(all.count)")
    var perDay: [Int64: [Int64]] = [:]
    for c in all {
      let (d, tod) = Self.local(c, offset)
      perDay[d, default: []].append(tod)
    }
    for (d, tods) in perDay {
      // Day 0's 06:00 on a clock east of UTC is before 00:00 UTC; the run starts then.
      let expected = [Self.hm(6, 0).milliseconds, Self.hm(13, 10).milliseconds]
      #expect(tods == expected || tods == [expected[1]] || tods == [expected[0]], "day \(d): \(tods)")
    }
    // Between two changes nothing changes: the next change after 06:00 is 13:10 the same day.
    let six = all.first { Self.local($0, offset).tod == Self.hm(6, 0).milliseconds }!
    #expect(s.next(after: six) == six + .minutes(7 * 60 + 10))
    #expect(s.next(after: six - .milliseconds(1)) == six)
  }

  @Test func aWeekdayOnlyScheduleHasNoChangeOnSaturdayOrSunday() {
    let start = Weekday.wednesday
    let calendar = WeekCalendar(startWeekday: start)
    for offsetHours in [-8.0, 0, 9] {
      let offset = SimDuration.hours(offsetHours)
      let s = ChangeSchedule(.clockTimes([Self.hm(9, 30), Self.hm(16, 0)], days: .weekdays), clockOffset: offset, startWeekday: start)
      let all = Self.changes(s, until: .zero + .days(28))
      var weekdays = Set<Int>()
      for c in all {
        let (d, _) = Self.local(c, offset)
        // Day-of-week 0 = Monday ... 6 = Sunday, counted in local time.
        let dow = Int(((Int64(start.rawValue) + d) % 7 + 7) % 7)
        #expect(dow != 5 && dow != 6, "a change on day-of-week \(dow) at \(c), offset \(offsetHours)")
        #expect(calendar.weekday(at: c, clockOffset: offset).rawValue == dow)
        weekdays.insert(dow)
      }
      #expect(weekdays == [0, 1, 2, 3, 4])
      #expect(all.count >= 2 * 19, "four weeks of weekdays, got \(all.count)")
    }
  }

  @Test func theWeekdayIsCountedInEachClocksLocalTime() {
    let c = WeekCalendar(startWeekday: .monday)
    #expect(c.weekday(at: .zero, clockOffset: .zero) == .monday)
    #expect(c.weekday(at: .zero, clockOffset: .hours(-5)) == .sunday)  // still day -1 in New York
    #expect(c.weekday(at: .zero + .hours(5), clockOffset: .hours(-5)) == .monday)
    #expect(c.weekday(at: .zero + .hours(23), clockOffset: .hours(10)) == .tuesday)  // Sydney is a day ahead
    #expect(c.isWeekend(at: .zero + .days(5), clockOffset: .zero))
    #expect(!c.isWeekend(at: .zero + .days(5), clockOffset: .hours(-5)))  // Friday evening there
  }

  @Test func aWeekendScheduleReplacesTheWeekdayOneOnSaturdayAndSunday() {
    let spec = ScheduledChanges(
      every: .hours(1), fromHour: 6, toHour: 22, weekend: WeekendSchedule(at: [Self.hm(10, 0)]))
    let s = ChangeSchedule(spec, clockOffset: .hours(2), startWeekday: .monday)
    let all = Self.changes(s, from: .zero, until: .zero + .days(7))
    var perDay: [Int64: Int] = [:]
    for c in all { perDay[Self.local(c, .hours(2)).day, default: 0] += 1 }
    for d in Int64(0)...6 {
      let expected = d >= 5 ? 1 : 16
      // Day 0 starts at 02:00 local of day 0; its 06:00-22:00 is whole.
      #expect(perDay[d, default: 0] == expected, "day \(d): \(perDay[d, default: 0])")
    }
  }

  @Test func driftMovesTheTimesByTheGivenMinutesEachDay() {
    let s = ChangeSchedule(.clockTimes([Self.hm(7, 0), Self.hm(19, 0)], driftPerDay: .minutes(-2)), clockOffset: .zero)
    for d in Int64(0)..<20 {
      let sunrise = s.next(after: SimTime(milliseconds: d * Self.day - 1))
      #expect(sunrise.milliseconds == d * Self.day + Self.hm(7, 0).milliseconds - d * 120_000)
      let sunset = s.next(after: sunrise)
      #expect(sunset.milliseconds == d * Self.day + Self.hm(19, 0).milliseconds - d * 120_000)
    }
  }

  /// The calendar's answer equals a scan of the definition, for random
  /// lists, grids, days, weekend schedules, drifts and clocks.
  @Test(arguments: 0..<40)
  func nextChangeMatchesTheDefinition(seed: Int) {
    var rng = Xoshiro256StarStar(seed: UInt64(seed) &+ 1000)
    func pick(_ n: Int) -> Int { rng.nextIndex(below: n) }
    func times() -> [SimDuration] {
      var set = Set<Int>()
      for _ in 0...pick(6) { set.insert(120 + pick(1200)) }
      return set.sorted().map { .minutes(Double($0)) }
    }
    let useTimes = pick(2) == 0
    let days = ScheduleDays.allCases[pick(3)]
    var spec = ScheduledChanges(
      every: .minutes(Double([7, 45, 60, 90, 1440, 2000][pick(6)])), offset: .minutes(Double(pick(120))),
      fromHour: pick(8), toHour: 14 + pick(11), at: useTimes ? times() : [],
      driftPerDay: useTimes ? .minutes(Double(pick(5) - 2)) : .zero, days: days)
    if days == .everyDay && pick(2) == 0 {
      spec.weekend = pick(2) == 0 ? WeekendSchedule(at: times()) : WeekendSchedule(every: .minutes(Double(30 + pick(200))), fromHour: pick(10), toHour: 20)
    }
    if pick(3) == 0 { spec.publication = Publication(atUTC: .minutes(Double(pick(1440)))) }
    let start = Weekday.allCases[pick(7)]
    let offset = SimDuration.hours(Double(pick(27) - 12))
    let s = ChangeSchedule(spec, clockOffset: offset, startWeekday: start)
    let expected = Self.definition(spec, start: start, offset: offset, days: -2...120)
    for _ in 0..<300 {
      let t = SimTime(milliseconds: Int64(pick(25 * 86_400)) * 1000 + Int64(pick(1000)))
      let want = expected.first { $0 > t } ?? .never
      let got = s.next(after: t)
      if want < t + .days(60) {
        #expect(got == want, "\(spec) start \(start) offset \(offset.minutes) min at \(t)")
      } else {
        // The search looks at least 64 days ahead; a sparser schedule may say never.
        #expect(got == want || got == .never, "\(spec) at \(t)")
      }
    }
    for c in expected.prefix(40) where c > .zero {
      #expect(s.next(after: c - .milliseconds(1)) == c)
    }
  }

  /// The changes of local days `days`, straight from the definition, in UTC.
  static func definition(_ spec: ScheduledChanges, start: Weekday, offset: SimDuration, days: ClosedRange<Int64>) -> [SimTime] {
    var out: [SimTime] = []
    for d in days {
      let dow = ((Int64(start.rawValue) + d) % 7 + 7) % 7
      let weekend = dow >= 5
      if spec.days == .weekdays && weekend { continue }
      if spec.days == .weekends && !weekend { continue }
      var at = spec.at
      var every = spec.every
      var offsetGrid = spec.offset
      var from = spec.fromHour
      var to = spec.toHour
      if weekend, let w = spec.weekend {
        at = w.at
        every = w.every
        offsetGrid = w.offset
        from = w.fromHour
        to = w.toHour
      }
      var local: [Int64] = []
      if !at.isEmpty {
        for a in at {
          let tod = a.milliseconds + d * spec.driftPerDay.milliseconds
          if tod >= 0 && tod < day { local.append(d * day + tod) }
        }
      } else {
        let e = every.milliseconds
        let lo = d * day + Int64(from) * 3_600_000
        let hi = d * day + Int64(to) * 3_600_000
        var k = (lo - offsetGrid.milliseconds) / e - 2
        while offsetGrid.milliseconds + k * e < hi {
          let c = offsetGrid.milliseconds + k * e
          if c >= lo { local.append(c) }
          k += 1
        }
      }
      out += local.map { SimTime(milliseconds: $0 - offset.milliseconds) }
    }
    return out.sorted()
  }

  @Test func aGridThroughTheCalendarEqualsThePlainGrid() {
    // A publication far in the past routes the grid through the calendar
    // without changing which data exists.
    for (every, from, to) in [(60.0, 0, 24), (45.0, 6, 22), (7.0, 3, 5), (2000.0, 0, 24)] {
      let plain = ScheduledChanges(every: .minutes(every), offset: .minutes(13), fromHour: from, toHour: to)
      var routed = plain
      routed.weekend = WeekendSchedule(every: .minutes(every), offset: .minutes(13), fromHour: from, toHour: to)
      for offset in [-7.0, 0, 5.5] {
        let a = ChangeSchedule(plain, clockOffset: .hours(offset))
        let b = ChangeSchedule(routed, clockOffset: .hours(offset))
        #expect(a != b)
        var t = SimTime(milliseconds: -Self.day)
        for _ in 0..<500 {
          let na = a.next(after: t)
          #expect(na == b.next(after: t), "every \(every) from \(from) to \(to) offset \(offset) after \(t)")
          t = na
        }
      }
    }
  }

  /// Wikipedia's "most read": the new day's list appears about 02:15 UTC.
  /// Sydney (UTC+10) is past local midnight 12 h 15 min earlier; New York
  /// (UTC-5) gets it 2 h 45 min before its midnight.
  @Test func dataPublishedAfterTheChangeIsNotKnownBeforeItsPublication() {
    let spec = ScheduledChanges.clockTimes([.zero], publication: Publication(atUTC: Self.hm(2, 15)))
    let sydney = ChangeSchedule(spec, clockOffset: .hours(10))
    // Local midnight of day 3 in Sydney is 14:00 UTC of day 2.
    let midnight = SimTime(milliseconds: 2 * Self.day + 14 * 3_600_000)
    #expect(sydney.next(after: midnight - .hours(1)) == midnight)
    let publication = SimTime(milliseconds: 3 * Self.day + Self.hm(2, 15).milliseconds)
    for t in [midnight - .hours(3), midnight, midnight + .hours(6), publication - .milliseconds(1)] {
      #expect(sydney.publishedThrough(at: t) < midnight, "at \(t) the day's data is unpublished")
    }
    #expect(sydney.publishedThrough(at: publication) >= midnight)
    #expect(sydney.nextShowable(after: midnight - .hours(1)) == publication)

    let newYork = ChangeSchedule(spec, clockOffset: .hours(-5))
    let nyMidnight = SimTime(milliseconds: 3 * Self.day + 5 * 3_600_000)
    #expect(newYork.publishedThrough(at: nyMidnight - .hours(1)) >= nyMidnight, "published 2 h 45 min before")
    #expect(newYork.publishedThrough(at: publication - .milliseconds(1)) < nyMidnight)
    #expect(newYork.nextShowable(after: nyMidnight - .hours(1)) == nyMidnight)
  }

  @Test func dayAheadPricesArePublishedTheDayBefore() {
    let spec = ScheduledChanges(
      every: .hours(1), horizon: .hours(36), publication: Publication(atUTC: Self.hm(11, 0), daysAhead: 1))
    let s = ChangeSchedule(spec, clockOffset: .hours(1))
    let beforePublication = SimTime(milliseconds: 4 * Self.day + 10 * 3_600_000)
    // At 10:00 UTC of day 4 the prices up to the end of local day 4 are known, not day 5's.
    let endOfDay4 = SimTime(milliseconds: 5 * Self.day - 3_600_000)
    #expect(s.publishedThrough(at: beforePublication) == endOfDay4 - .milliseconds(1))
    #expect(s.publishedThrough(at: beforePublication + .hours(1)) == endOfDay4 + .days(1) - .milliseconds(1))
  }

  @Test func aPlainGridHasNoPublicationAndKeepsItsAnswers() {
    let s = ChangeSchedule(ScheduledChanges(every: .hours(1), fromHour: 6), clockOffset: .hours(2))
    #expect(s.next(after: .zero) == .zero + .hours(4))
    #expect(s.publishedThrough(at: .zero + .days(3)) == .never)
    #expect(s.nextShowable(after: .zero) == s.next(after: .zero))
  }
  /// `last(of:after:notAfter:)` and `count(from:to:)` take shortcuts on an
  /// all-day grid; on every kind of schedule they equal stepping
  /// `next(after:)` one change at a time.
  @Test func shortcutsEqualSteppingThroughTheChanges() {
    let specs: [ScheduledChanges] = [
      ScheduledChanges(every: .minutes(60)),
      ScheduledChanges(every: .minutes(7), offset: .minutes(3)),
      ScheduledChanges(every: .minutes(45), offset: .minutes(13), fromHour: 6, toHour: 22),
      ScheduledChanges.clockTimes([Self.hm(6, 0), Self.hm(13, 10), Self.hm(18, 30)]),
    ]
    var rng = SplitMix64(seed: 17)
    for spec in specs {
      for offset in [-7.0, 0, 5.5] {
        let s = ChangeSchedule(spec, clockOffset: .hours(offset))
        for _ in 0..<300 {
          let time = SimTime(milliseconds: Int64(rng.next() % UInt64(20 * Self.day)) - Self.day)
          let limit = time + .milliseconds(Int64(rng.next() % UInt64(3 * Self.day)))
          let steps = Int(rng.next() % 40)
          var t = time
          for _ in 0..<steps {
            let n = s.next(after: t)
            if n > limit { break }
            t = n
          }
          #expect(s.last(of: steps, after: time, notAfter: limit) == t, "\(spec) offset \(offset): \(steps) after \(time)")
          var count = 0
          var c = s.next(after: time - .milliseconds(1))
          while c < limit {
            count += 1
            c = s.next(after: c)
          }
          #expect(s.count(from: time, to: limit) == count, "\(spec) offset \(offset): count in [\(time), \(limit))")
        }
      }
    }
  }
}
