// A schedule's times as its own time zone reads them (09:00 in Asia/Shanghai is 09:00, wherever the browser is).
export function zonedTime(language: string, timeZone: string | undefined, seconds: number): string {
  try {
    return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(
      new Date(seconds * 1000),
    );
  } catch {
    return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(
      new Date(seconds * 1000),
    );
  }
}
