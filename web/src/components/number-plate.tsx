// A registration shown as a UK number plate, with DVLA spacing and a spoken "Registration ...".
import { formatRegistration } from "@vics/shared";

interface NumberPlateProps {
  registration: string;
  size?: "large" | "small";
}

export function NumberPlate({
  registration,
  size = "large",
}: NumberPlateProps) {
  return (
    <span className={`number-plate number-plate--${size}`}>
      <span className="number-plate__band" aria-hidden="true">
        UK
      </span>
      <span className="visually-hidden">Registration </span>
      <span className="number-plate__text">
        {formatRegistration(registration)}
      </span>
    </span>
  );
}
