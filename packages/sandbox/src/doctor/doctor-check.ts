export type DoctorStatus = 'ok' | 'warn' | 'fail' | 'skip';

/** One line of `ab doctor`. */
export interface DoctorCheck {
  name: string;
  status: DoctorStatus;
  detail: string;
  /** The default path (Docker backend with the runner image) cannot work without it. */
  isRequired: boolean;
}
