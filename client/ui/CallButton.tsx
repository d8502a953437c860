import { CallLink } from "./CallLink";
import { Icon } from "./Icon";
import { PHONE_ICON } from "./icons";

interface CallButtonProps {
  phone: string;
  service: string;
  /** Where on the page it sits, for call tracking. */
  location: string;
  className: string;
  label: string;
  /** The icon's size (and display) classes. */
  iconClassName?: string;
}

/** A call link with the phone icon: the service pages' many 'Call …' buttons. */
export function CallButton({ phone, service, location, className, label, iconClassName = "h-5 w-5" }: CallButtonProps) {
  return (
    <CallLink phone={phone} service={service} location={location} className={className}>
      <Icon node={PHONE_ICON} className={`${iconClassName} shrink-0`} />
      <span>{label}</span>
    </CallLink>
  );
}
